// What a tab keeps of a table in sessionStorage, under the table: the seat's credential (a
// reload of the tab keeps the seat; another tab or browser is another player, or a
// spectator, until it joins) and the log seen so far (a reload, or another language, keeps
// it). The player's name is kept in localStorage, for the next table.
import type { LinePart } from "./lines";

export interface HeldSeat {
  seat: number;
  token: string;
}

const key = (tableId: string): string => `bhabhi.seat.${tableId}`;

export function heldSeat(tableId: string): HeldSeat | null {
  const stored = sessionStorage.getItem(key(tableId));
  if (stored === null) return null;
  try {
    const parsed = JSON.parse(stored) as Partial<HeldSeat>;
    if (typeof parsed.seat === "number" && typeof parsed.token === "string") {
      return { seat: parsed.seat, token: parsed.token };
    }
  } catch {
    // not ours: forget it
  }
  sessionStorage.removeItem(key(tableId));
  return null;
}

export function keepSeat(tableId: string, held: HeldSeat): void {
  sessionStorage.setItem(key(tableId), JSON.stringify(held));
}

export function forgetSeat(tableId: string): void {
  sessionStorage.removeItem(key(tableId));
}

/** A line of the log and the seq of the event it tells. */
export interface LoggedLine {
  seq: string;
  line: LinePart;
}

const logKey = (tableId: string): string => `bhabhi.log.${tableId}`;

export function keptLog(tableId: string): LoggedLine[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(logKey(tableId)) ?? "[]");
    return Array.isArray(parsed) ? (parsed as LoggedLine[]).filter((entry) => typeof entry?.seq === "string") : [];
  } catch {
    return [];
  }
}

export function keepLog(tableId: string, lines: readonly LoggedLine[]): void {
  sessionStorage.setItem(logKey(tableId), JSON.stringify(lines));
}

const NAME = "bhabhi.name";

export function savedName(): string {
  return localStorage.getItem(NAME) ?? "";
}

export function saveName(name: string): void {
  localStorage.setItem(NAME, name);
}
