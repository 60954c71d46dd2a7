// The web table's entry point: the header (title, language), and the view the address's
// fragment names: `#table=ID` a table, `#rulebook=ID` a rulebook, `#replay=ID:HAND` the
// replay of a finished hand, anything else the lobby.
import { h, replace } from "./dom";
import { type Language, LANGUAGE_NAMES, LANGUAGES, language, setLanguage, t } from "./i18n";
import { lobby } from "./lobby";
import { parseReplayRoute } from "./replay";
import { replayPage } from "./replayview";
import { rulebook } from "./rulebook";
import { tablePage } from "./table";
import type { View } from "./view";

let current: View | null = null;

function route(): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, "")));
}

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
  const where = route();
  const replay = where.replay ? parseReplayRoute(where.replay) : null;
  if (replay !== null) current = replayPage(main, replay.tableId, replay.hand);
  else if (where.table) current = tablePage(main, where.table);
  else if (where.rulebook) current = rulebook(main, where.rulebook);
  else current = lobby(main);
}

window.addEventListener("hashchange", show);
show();
