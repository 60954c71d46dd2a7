// A ruleset's rulebook in the page's language: GetRulebook writes one self-contained HTML
// page (inline CSS, nothing fetched), shown in a sandboxed frame (no script runs in it).
import { failedText, rulesets } from "./api";
import { h, replace } from "./dom";
import { language, t } from "./i18n";
import { backLink } from "./routes";
import { title } from "./names";
import { RulebookFormat } from "./gen/bhabhi/referee/v1/referee_pb";
import type { View } from "./view";

export function rulebook(root: HTMLElement, rulesetId: string): View {
  const box = h("div", { class: "rulebook" }, t("loading"));
  replace(root, backLink(), box);
  let open = true;
  rulesets
    .getRulebook({ rulesetId, language: language(), format: RulebookFormat.HTML })
    .then((book) => {
      if (!open) return;
      const frame = h("iframe", {
        class: "rulebook",
        title: `${t("rulebook")}: ${book.ruleset ? title(book.ruleset) : rulesetId}`,
        sandbox: "allow-same-origin",
        lang: book.language,
      });
      frame.srcdoc = book.text;
      replace(box, frame);
    })
    .catch((error: unknown) => replace(box, failedText(error)));
  return {
    close: () => {
      open = false;
    },
  };
}
