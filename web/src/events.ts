// An event of the table's stream as a line of the log (lines.ts). Only what the event
// itself says: a card only where every player saw it (a card played, never a card drawn or
// a hand taken); a count only where the recipient may know it.
import type { Event } from "./gen/bhabhi/referee/v1/referee_pb";
import { type LinePart, pickedUpLine } from "./lines";

const line = (key: LinePart["key"], values: LinePart["values"] = {}): LinePart => ({ key, values });

/** The line for `event`, or null for an event the log does not tell. */
export function eventLine(event: Event): LinePart | null {
  const kind = event.kind;
  switch (kind.case) {
    case "playerJoined":
      return { ...line("eventJoined", { name: kind.value.seat }), joinedAs: kind.value.playerName };
    case "playerLeft":
      return line("eventLeft", { name: kind.value.seat });
    case "handStarted":
      return line("eventDealt", { n: event.handNumber + 1 });
    case "cardPlayed":
      return line("eventPlayed", { name: kind.value.seat, card: kind.value.card });
    case "pickedUp": {
      const { seat, cards, fromWaste } = kind.value;
      return pickedUpLine(seat, cards, fromWaste);
    }
    case "trickToWaste":
      return line("eventToWaste");
    case "playerOut":
      return line("eventOut", { name: kind.value.seat });
    case "turnTimedOut":
      return line("eventTimedOut", { name: kind.value.seat });
    case "handTaken":
      return line("eventTaken", { taker: kind.value.taker, name: kind.value.seat });
    case "trumpFixed":
      return line("eventTrump", { name: kind.value.seat });
    case "illegalPlayPenalised":
      return line("eventPenalty", { name: kind.value.seat });
    case "wasteDrawn":
      return line("eventDrewWasteHidden", { name: kind.value.seat });
    case "cardDrawn":
      return line("eventDrewFromHidden", { name: kind.value.seat, other: kind.value.fromSeat });
    case "takeRequested":
      return line("eventTakeAsked", { taker: kind.value.taker, name: kind.value.seat });
    case "takeAnswered":
      return line(kind.value.agreed ? "eventTakeAgreed" : "eventTakeRefused", {
        name: kind.value.seat,
        taker: kind.value.taker,
      });
    case "takePassed":
      return line("eventTakePassed", { name: kind.value.seat });
    case "tochooChallenged":
      return kind.value.right
        ? line("eventChallengeRight", { name: kind.value.challenger, offender: kind.value.offender })
        : line("eventChallengeWrong", { name: kind.value.challenger });
    case "handOver": {
      const bhabhi = kind.value.result?.bhabhi;
      return bhabhi === undefined ? line("noBhabhi") : line("bhabhiIs", { name: bhabhi });
    }
    case "sessionOver":
      return line("sessionOver");
    case "tableClosed":
      return line("tableClosed");
    default:
      return null;
  }
}
