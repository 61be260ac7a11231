// Being told that a table awaits the player: the tab's title and icon say "your move" while it
// does, and, with the player's permission (asked from a button, never on load), the browser's
// Notification API says so when the tab is in the background. The server's own notices (webhook,
// email) are the player's settings (account.js).

import { byLanguage } from "./words.js";

const icon = () => document.querySelector('link[rel="icon"]');
const PLAIN_ICON = icon() ? icon().getAttribute("href") : null;
// The page's icon with a yellow mark at its corner: the table awaits you.
const AWAITED_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#b5462f"/>'
  + '<circle cx="11.5" cy="4.5" r="4.2" fill="#ffd23f" stroke="#1f1d1a" stroke-width="1.2"/></svg>');

// The words of this module a person reads, by language (kept together for translation).
export const WORDS = byLanguage({
  en: {
    page: "Ludoteca: the web table",
    title: (game) => `${game}: Ludoteca`,
    yourMoveTitle: (game) => `● Your move: ${game}: Ludoteca`,
    notice: "Your move",
    noticeBody: (game) => `${game}: the table awaits you.`,
  },
  pt: {
    page: "Ludoteca: a mesa na web",
    title: (game) => `${game}: Ludoteca`,
    yourMoveTitle: (game) => `● É a sua vez: ${game}: Ludoteca`,
    notice: "É a sua vez",
    noticeBody: (game) => `${game}: a mesa está à sua espera.`,
  },
  gl: {
    page: "Ludoteca: a mesa na web",
    title: (game) => `${game}: Ludoteca`,
    yourMoveTitle: (game) => `● É a túa quenda: ${game}: Ludoteca`,
    notice: "É a túa quenda",
    noticeBody: (game) => `${game}: a mesa agárdate.`,
  },
  es: {
    page: "Ludoteca: la mesa en la web",
    title: (game) => `${game}: Ludoteca`,
    yourMoveTitle: (game) => `● Es tu turno: ${game}: Ludoteca`,
    notice: "Es tu turno",
    noticeBody: (game) => `${game}: la mesa te espera.`,
  },
});

// The tab's title and icon: the page's own, a table's, or a table awaiting the player.
export function showTitle(game = null, awaited = false) {
  document.title = game === null ? WORDS.page : awaited ? WORDS.yourMoveTitle(game) : WORDS.title(game);
  const link = icon();
  if (link && PLAIN_ICON) link.setAttribute("href", awaited ? AWAITED_ICON : PLAIN_ICON);
}

export const notificationsHere = () => "Notification" in window;
export const permission = () => (notificationsHere() ? Notification.permission : "denied");

// Asked when the person presses the button for it: the browser's own question.
export async function askPermission() {
  if (!notificationsHere()) return "denied";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

// The person is elsewhere: the tab is hidden, or its window is not the one in front.
export const away = () => document.visibilityState !== "visible" || !document.hasFocus();

// A notification that the table awaits the player, while the person is elsewhere and allowed it;
// clicking it brings the table back. One per table at a time (its tag).
export function tellAwaited(game, gameId) {
  if (permission() !== "granted" || !away()) return null;
  try {
    const n = new Notification(WORDS.notice, { body: WORDS.noticeBody(game), tag: `ludoteca-${gameId}`, icon: AWAITED_ICON });
    n.onclick = () => {
      window.focus();
      location.hash = `#/game/${gameId}`;
      n.close();
    };
    return n;
  } catch {
    return null; // a browser that shows notifications only from a service worker (Android's)
  }
}
