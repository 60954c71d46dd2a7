// A seat's credential, kept in sessionStorage under its table: a reload of the tab keeps
// the seat; another tab or browser is another player (or a spectator) until it joins.

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

const NAME = "bhabhi.name";

export function savedName(): string {
  return localStorage.getItem(NAME) ?? "";
}

export function saveName(name: string): void {
  localStorage.setItem(NAME, name);
}
