// Names shown for things the referee names: a ruleset's title in the page's language.
import type { RulesetSummary } from "./gen/bhabhi/referee/v1/referee_pb";
import { language } from "./i18n";

export function title(ruleset: RulesetSummary): string {
  return ruleset.title[language()] ?? ruleset.title.en ?? ruleset.id;
}
