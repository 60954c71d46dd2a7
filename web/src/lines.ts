// A line of the log or of a replay's step, kept as a key of the page's words and its values
// (not as finished text), so that it is worded when it is shown: in the language chosen
// then, naming the seats as the table names them then. The table's log and the replay
// both say their lines through `say`.
import { cardText } from "./cards";
import { t } from "./i18n";
import type { Key } from "./strings";

/** A part of a line: a key of the page's words and its values; the values of SEAT_VALUES'
 * keys are seats (to be named), a `card` value a card, a `cards` value cards (by spaces). */
export interface LinePart {
  key: Key;
  values: Record<string, string | number>;
  /** The name the seat of `name` joined under (before the table's seats show it). */
  joinedAs?: string;
}

const SEAT_VALUES = new Set(["name", "taker", "other", "offender"]);

/** The parts in words, each seat named by `name`. */
export function say(parts: readonly LinePart[], name: (seat: number, joinedAs?: string) => string): string {
  return parts
    .map((part) => {
      const values: Record<string, string | number> = {};
      for (const [key, value] of Object.entries(part.values)) {
        if (SEAT_VALUES.has(key) && typeof value === "number") {
          values[key] = name(value, key === "name" ? part.joinedAs : undefined);
        } else if (key === "card") values[key] = cardText(String(value));
        else if (key === "cards") values[key] = String(value).split(" ").filter(Boolean).map(cardText).join(" ");
        else values[key] = value;
      }
      return t(part.key, values);
    })
    .join(" ");
}

/** A pickup: the trick's cards (every player saw them) and the waste pile's share, which a
 * recipient may not be told (-1, H29). */
export function pickedUpLine(seat: number, cards: readonly string[], fromWaste: number): LinePart {
  const values = { name: seat, cards: cards.join(" ") };
  if (fromWaste < 0) return { key: "eventPickedUpWaste", values };
  if (fromWaste > 0) return { key: "eventPickedUpFromWaste", values: { ...values, n: fromWaste } };
  return { key: "eventPickedUp", values };
}
