// The web table's entry point: the header (title, language), and the view the address's
// fragment names (routes.ts).
import { analysisPage } from "./analysis";
import { h, replace } from "./dom";
import { type Language, LANGUAGE_NAMES, LANGUAGES, language, setLanguage, t } from "./i18n";
import { lobby } from "./lobby";
import { replayPage } from "./replayview";
import { rulebook } from "./rulebook";
import { parseRoute } from "./routes";
import { tablePage } from "./table";
import type { View } from "./view";

let current: View | null = null;

function header(): HTMLElement {
  const choice = h("select", { id: "language", "aria-label": t("language") });
  for (const code of LANGUAGES) {
    choice.appendChild(h("option", { value: code, selected: code === language() }, LANGUAGE_NAMES[code]));
  }
  choice.addEventListener("change", () => {
    setLanguage(choice.value as Language);
    show();
  });
  return h(
    "header",
    {},
    h("h1", {}, h("a", { href: "#" }, t("title"))),
    h("label", { class: "language" }, `${t("language")} `, choice),
  );
}

function show(): void {
  current?.close();
  document.documentElement.lang = language();
  document.title = t("title");
  const main = h("main", { id: "main" });
  const body = document.getElementById("app") ?? document.body;
  replace(body, header(), main);
  const where = parseRoute(location.hash);
  if (where.view === "replay") current = replayPage(main, where.tableId, where.hand);
  else if (where.view === "table") current = tablePage(main, where.tableId);
  else if (where.view === "rulebook") current = rulebook(main, where.rulesetId);
  else if (where.view === "analysis") current = analysisPage(main, where.rulesetId, where.hands, where.skill);
  else current = lobby(main, where.unknown);
}

window.addEventListener("hashchange", show);
show();
