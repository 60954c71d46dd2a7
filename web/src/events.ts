// An event of the table's stream as a line of the log, in the page's language. Only what
// the event itself says: a card only where every player saw it (a card played, never a
// card drawn or a hand taken).
import type { Event } from "./gen/bhabhi/referee/v1/referee_pb";
import { parseCard, SUIT_SYMBOL } from "./cards";
import { t } from "./i18n";

/** A card as text: its rank and suit symbol (`A♠`). */
export function cardText(text: string): string {
  const card = parseCard(text);
  return card === null ? text : `${card.rank}${SUIT_SYMBOL[card.suit]}`;
}

/** The line for `event`, or null for an event the log does not tell. */
export function eventLine(event: Event, name: (seat: number) => string): string | null {
  const kind = event.kind;
  switch (kind.case) {
    case "playerJoined":
      return t("eventJoined", { name: kind.value.playerName || name(kind.value.seat) });
    case "playerLeft":
      return t("eventLeft", { name: name(kind.value.seat) });
    case "handStarted":
      return t("eventDealt", { n: event.handNumber + 1 });
    case "cardPlayed":
      return t("eventPlayed", { name: name(kind.value.seat), card: cardText(kind.value.card) });
    case "pickedUp":
      return t("eventPickedUp", {
        name: name(kind.value.seat),
        n: kind.value.cards.length + Math.max(0, kind.value.fromWaste),
      });
    case "trickToWaste":
      return t("eventToWaste");
    case "playerOut":
      return t("eventOut", { name: name(kind.value.seat) });
    case "turnTimedOut":
      return t("eventTimedOut", { name: name(kind.value.seat) });
    case "handTaken":
      return t("eventTaken", { taker: name(kind.value.taker), name: name(kind.value.seat) });
    case "trumpFixed":
      return t("eventTrump", { name: name(kind.value.seat) });
    case "illegalPlayPenalised":
      return t("eventPenalty", { name: name(kind.value.seat) });
    case "handOver": {
      const bhabhi = kind.value.result?.bhabhi;
      return bhabhi === undefined ? t("noBhabhi") : t("bhabhiIs", { name: name(bhabhi) });
    }
    case "sessionOver":
      return t("sessionOver");
    case "tableClosed":
      return t("tableClosed");
    default:
      return null;
  }
}
