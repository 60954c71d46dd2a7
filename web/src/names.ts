// Names shown for things the referee names: a seat's player, a ruleset's title, a table's
// status, in the page's language.
import { BotStrategy, type RulesetSummary, type Seat, TableStatus } from "./gen/bhabhi/referee/v1/referee_pb";
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

/** A seat as the page names it: its player (else the name it joined under, else "Seat N",
 * counted from 1); a name two seats share (two bots of one kind) is followed by the
 * seat's number, so that every line of the log and the replay names one seat. */
export function seatName(seats: ReadonlyArray<Seat | undefined>, seat: number, joinedAs = ""): string {
  const named = (at: number): string => playerName(seats[at]) || (at === seat ? joinedAs : "") || t("seatN", { n: at + 1 });
  const name = named(seat);
  const shared = seats.some((_, at) => at !== seat && named(at) === name);
  return shared ? `${name} (${t("seatN", { n: seat + 1 })})` : name;
}

/** The entry of a per-language map (a ruleset's title, its description) in the page's
 * language, else in English, else `otherwise`. */
export function localized(words: Record<string, string>, otherwise: string): string {
  return words[language()] ?? words.en ?? otherwise;
}

export function title(ruleset: RulesetSummary): string {
  return localized(ruleset.title, ruleset.id);
}

export function statusText(status: TableStatus): string {
  if (status === TableStatus.OPEN) return t("statusOpen");
  if (status === TableStatus.PLAYING) return t("statusPlaying");
  return t("statusFinished");
}
