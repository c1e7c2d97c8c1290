// The games' short names (issue #31 item 5): what players call them, and what a phone's
// header has room for in full ("Stud" and "Stud Hi/Lo", "2-7 Triple" and "Badugi" told apart
// in a mix).  Keyed by the game's code (the view's `game`, the catalogue's `game`); the
// server's full name stays in the element's title.  Names, not rules: the page still draws
// what the view says.
const SHORT = {
  NT: "Hold'em", PT: "PL Hold'em", FT: "Limit Hold'em", NS: 'Short Deck', PS: 'PL Short Deck',
  PO: 'PLO', NO: 'NL Omaha', FO: 'Limit Omaha', 'PO/8': 'PLO Hi/Lo', 'FO/8': 'Omaha Hi/Lo',
  F7S: 'Stud', 'F7S/8': 'Stud Hi/Lo', FR: 'Razz',
  N5CD: '5-Card Draw', P5CD: 'PL 5-Card Draw', F5CD: 'Limit 5-Card Draw',
  N2L1D: '2-7 Single', P2L1D: 'PL 2-7 Single', F2L1D: 'Limit 2-7 Single',
  F2L3D: '2-7 Triple', P2L3D: 'PL 2-7 Triple', N2L3D: 'NL 2-7 Triple',
  FB: 'Badugi', PB: 'PL Badugi', NB: 'NL Badugi',
  HORSE: 'HORSE', '8GAME': '8-Game',
};

/** The game of a table whose view names none (docs/protocol.md "Every game"). */
export const HOUSE_GAME = 'NT';

/** The short name of game `code`; the server's `name` (or the code) for a game this table lacks. */
export function shortGame(code, name) {
  return SHORT[code] || name || code || '';
}
