// A view of the page (the lobby, a rulebook, a table): what to stop when the page leaves it.
export interface View {
  close(): void;
}
