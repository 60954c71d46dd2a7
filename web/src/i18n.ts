// The page's language: chosen by hand (kept in localStorage), else the browser's first
// language the page has words for, else English. The same language goes to the referee
// as `accept-language` (its refusals' words) and as GetRulebook's `language`.
import { DICTIONARIES, type Key } from "./strings";

export const LANGUAGES = ["en", "de", "pl"] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  pl: "Polski",
};
const STORED = "bhabhi.language";

function known(tag: string | null | undefined): Language | null {
  const primary = (tag ?? "").toLowerCase().split("-")[0];
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : null;
}

function initial(): Language {
  const stored = known(localStorage.getItem(STORED));
  if (stored !== null) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const found = known(tag);
    if (found !== null) return found;
  }
  return "en";
}

let current: Language = initial();

export function language(): Language {
  return current;
}

export function setLanguage(chosen: Language): void {
  current = chosen;
  localStorage.setItem(STORED, chosen);
  document.documentElement.lang = chosen;
}

/** The words for `key` in the page's language (by the plural category of `values.n` where
 * they count something), `{name}` filled from `values`. */
export function t(key: Key, values: Record<string, string | number> = {}): string {
  const entry = DICTIONARIES[current][key] ?? key; // a key kept from another build of the page
  const text =
    typeof entry === "string" ? entry : (entry[new Intl.PluralRules(current).select(Number(values.n))] ?? entry.other);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
