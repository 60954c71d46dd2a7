// Names shown for things the referee names: a ruleset's title in the page's language.
import { BotStrategy, type RulesetSummary, type Seat } from "./gen/bhabhi/referee/v1/referee_pb";
import { language, t } from "./i18n";
import type { Key } from "./strings";

/** The referee's bots, by strategy, as the page names them. */
export const BOT_NAMES: ReadonlyArray<[BotStrategy, Key]> = [
  [BotStrategy.RANDOM, "botRandom"],
  [BotStrategy.HEURISTIC, "botHeuristic"],
  [BotStrategy.STRONG, "botStrong"],
];

/** A seat's player as the page names it: a bot of the referee in the page's language
 * (the referee names it in English), else the name it was taken under. */
export function playerName(seat: Seat | undefined): string {
  const bot = BOT_NAMES.find(([strategy]) => strategy === seat?.bot);
  return bot ? t(bot[1]) : (seat?.playerName ?? "");
}

export function title(ruleset: RulesetSummary): string {
  return ruleset.title[language()] ?? ruleset.title.en ?? ruleset.id;
}
