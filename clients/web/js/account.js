// The player's own screens (docs/players.md): signing in on this device (a one-time code from a
// signed-in one, a passkey, the operator's identity provider), and the settings: the name, the
// public page, a code and passkeys for other devices, notifications (this browser's, and the
// server's: events, channels, quiet hours, email, webhook), signing out and erasing.

import { get, post, call } from "./api.js";
import { h, clear, message, errorMessage } from "./ui.js";
import {
  player, refresh, change, signOut, erase, signInWithCode, signInWithPasskey, addPasskey, passkeysHere,
  signInMethods, OIDC_START,
} from "./player.js";
import { notificationsHere, permission, askPermission } from "./notify.js";
import { byLanguage, date, number, pluralOf } from "./words.js";

// The words of these screens a person reads, by language (kept together for translation).
const WORDS = byLanguage({
  en: {
    signInTitle: "Sign in",
    signInText: "Sign in as the player you are on another device: your tables come with you.",
    switching: (name) => `You play as ${name} in this browser; signing in as another player switches it.`,
    codeLabel: "Code shown on your other device",
    codeHint: "On a device where you are signed in: settings, then “Show a sign-in code”.",
    signIn: "Sign in",
    signingIn: "Signing in",
    signedInAs: (name) => `Signed in: you play as ${name}.`,
    orPasskey: "Or, with a passkey this device holds:",
    passkeySignIn: "Sign in with a passkey",
    orProvider: "Or, with this site's account provider:",
    providerSignIn: "Sign in with your account",
    noPlayerYet: "No player plays in this browser yet.",
    toLobby: "To the lobby",
    settingsTitle: "Your player",
    name: "Name",
    rename: "Rename",
    renamed: "Renamed.",
    renaming: "Renaming",
    publicPage: " Show my ratings and games on my page",
    yourPage: "your page",
    changing: "Changing",
    otherDevice: "Sign in on another device",
    otherDeviceText: "Show a code here and type it on the other device, under “Sign in”.",
    showCode: "Show a sign-in code",
    codeIs: "Your code: ",
    codeValid: (minutes) => ` Good for ${minutes} minutes, once.`,
    askingCode: "Asking for a code",
    passkeys: "Passkeys",
    passkeysText: "A passkey signs you in on any device that holds it (synced by your phone or password manager), with nothing to type.",
    noPasskeys: "No passkey yet.",
    passkeyName: "Name of the new passkey",
    thisDevice: "This device",
    addPasskey: "Add a passkey",
    added: (name) => `Passkey “${name}” added.`,
    addingPasskey: "Adding a passkey",
    deletePasskey: "Delete",
    deleting: "Deleting the passkey",
    passkeyLine: (p, made, used) => `${p.name} · made ${made}${used ? ` · last used ${used}` : ""}${p.synced ? " · synced" : ""}`,
    notifications: "Notifications",
    thisBrowser: "In this browser",
    browserOn: "This browser shows a notification when a table awaits you while you are elsewhere.",
    browserOff: "This browser was told not to show notifications; its site settings may allow them again.",
    browserNone: "This browser shows no notifications.",
    browserAsk: "Notify me in this browser when it is my move",
    fromServer: "From the server, when you are not at the table",
    tellMe: "Tell me when",
    events: {
      move: " it is my move",
      trade: " a trade is offered to me",
      window: " I may answer a card played (a reaction)",
      ended: " a game of mine ended",
      rematch: " a rematch was opened",
    },
    by: "By",
    channels: { webhook: " webhook", email: " email" },
    awayOnly: " only about tables I do not have open",
    quiet: " Quiet hours, from ",
    quietTo: " to ",
    quietFrom: "quiet hours start",
    quietUntil: "quiet hours end",
    timeZone: "Time zone ",
    email: "Email address ",
    noEmail: "This server sends no email.",
    save: "Save",
    saved: "Saved.",
    saving: "Saving the notifications",
    webhook: "Webhook",
    webhookText: "A URL of yours (https) that each notice is posted to, signed with the secret below.",
    webhookUrl: "URL ",
    webhookFormat: "Form ",
    formats: { json: "plain JSON", discord: "Discord", slack: "Slack" },
    setWebhook: "Set the webhook",
    removeWebhook: "Remove it",
    webhookSet: "Webhook set.",
    webhookRemoved: "Webhook removed.",
    settingWebhook: "Setting the webhook",
    secret: "Signing secret ",
    leaving: "Leaving",
    signOut: "Sign out",
    signOutEverywhere: "Sign out on every device",
    erase: "Erase my player",
    eraseConfirm: (name) => `Erase ${name}? The name, the sign-ins, the passkeys and the list of tables go for good; the games keep the seat as “A former player”.`,
    signingOut: "Signing out",
    erasing: "Erasing",
  },
  pt: {
    signInTitle: "Entrar",
    signInText: "Entre como o jogador que é noutro dispositivo: as suas mesas vêm consigo.",
    switching: (name) => `Neste navegador joga como ${name}; entrar como outro jogador muda-o.`,
    codeLabel: "Código mostrado no seu outro dispositivo",
    codeHint: "Num dispositivo onde tenha entrado: definições e depois “Mostrar um código de entrada”.",
    signIn: "Entrar",
    signingIn: "A entrar",
    signedInAs: (name) => `Entrou: joga como ${name}.`,
    orPasskey: "Ou, com uma chave de acesso que este dispositivo guarda:",
    passkeySignIn: "Entrar com uma chave de acesso",
    orProvider: "Ou, com o fornecedor de contas deste sítio:",
    providerSignIn: "Entrar com a sua conta",
    noPlayerYet: "Ainda nenhum jogador joga neste navegador.",
    toLobby: "Para a entrada",
    settingsTitle: "O seu jogador",
    name: "Nome",
    rename: "Mudar o nome",
    renamed: "Nome mudado.",
    renaming: "A mudar o nome",
    publicPage: " Mostrar as minhas classificações e jogos na minha página",
    yourPage: "a sua página",
    changing: "A alterar",
    otherDevice: "Entrar noutro dispositivo",
    otherDeviceText: "Mostre aqui um código e escreva-o no outro dispositivo, em “Entrar”.",
    showCode: "Mostrar um código de entrada",
    codeIs: "O seu código: ",
    codeValid: (minutes) => (pluralOf(minutes) === "one" ? ` Válido durante ${number(minutes)} minuto, uma vez.` : ` Válido durante ${number(minutes)} minutos, uma vez.`),
    askingCode: "A pedir um código",
    passkeys: "Chaves de acesso",
    passkeysText: "Uma chave de acesso faz entrar em qualquer dispositivo que a guarde (sincronizada pelo telemóvel ou pelo gestor de palavras-passe), sem nada para escrever.",
    noPasskeys: "Ainda não há chaves de acesso.",
    passkeyName: "Nome da nova chave de acesso",
    thisDevice: "Este dispositivo",
    addPasskey: "Adicionar uma chave de acesso",
    added: (name) => `Chave de acesso “${name}” adicionada.`,
    addingPasskey: "A adicionar uma chave de acesso",
    deletePasskey: "Apagar",
    deleting: "A apagar a chave de acesso",
    passkeyLine: (p, made, used) => `${p.name} · criada a ${made}${used ? ` · usada pela última vez a ${used}` : ""}${p.synced ? " · sincronizada" : ""}`,
    notifications: "Notificações",
    thisBrowser: "Neste navegador",
    browserOn: "Este navegador mostra uma notificação quando uma mesa espera por si enquanto está noutro lado.",
    browserOff: "Este navegador foi instruído a não mostrar notificações; as definições do sítio podem voltar a permiti-las.",
    browserNone: "Este navegador não mostra notificações.",
    browserAsk: "Avisar-me neste navegador quando for a minha vez",
    fromServer: "Do servidor, quando não estou à mesa",
    tellMe: "Avisar-me quando",
    events: {
      move: " for a minha vez",
      trade: " me oferecerem uma troca",
      window: " puder responder a uma carta jogada (uma reação)",
      ended: " um jogo meu terminar",
      rematch: " for aberta uma desforra",
    },
    by: "Por",
    channels: { webhook: " webhook", email: " email" },
    awayOnly: " só sobre mesas que não tenho abertas",
    quiet: " Horas de silêncio, das ",
    quietTo: " às ",
    quietFrom: "início das horas de silêncio",
    quietUntil: "fim das horas de silêncio",
    timeZone: "Fuso horário ",
    email: "Endereço de email ",
    noEmail: "Este servidor não envia emails.",
    save: "Guardar",
    saved: "Guardado.",
    saving: "A guardar as notificações",
    webhook: "Webhook",
    webhookText: "Um URL seu (https) para onde cada aviso é enviado, assinado com o segredo abaixo.",
    webhookUrl: "URL ",
    webhookFormat: "Formato ",
    formats: { json: "JSON simples", discord: "Discord", slack: "Slack" },
    setWebhook: "Definir o webhook",
    removeWebhook: "Removê-lo",
    webhookSet: "Webhook definido.",
    webhookRemoved: "Webhook removido.",
    settingWebhook: "A definir o webhook",
    secret: "Segredo de assinatura ",
    leaving: "Sair",
    signOut: "Terminar sessão",
    signOutEverywhere: "Terminar sessão em todos os dispositivos",
    erase: "Apagar o meu jogador",
    eraseConfirm: (name) => `Apagar ${name}? O nome, as sessões, as chaves de acesso e a lista de mesas desaparecem para sempre; os jogos mantêm o lugar como “Um antigo jogador”.`,
    signingOut: "A terminar a sessão",
    erasing: "A apagar",
  },
  gl: {
    signInTitle: "Entrar",
    signInText: "Entra como o xogador que es noutro dispositivo: as túas mesas veñen contigo.",
    switching: (name) => `Neste navegador xogas como ${name}; entrar como outro xogador cámbiao.`,
    codeLabel: "Código amosado no teu outro dispositivo",
    codeHint: "Nun dispositivo onde teñas entrado: axustes e logo “Amosar un código de entrada”.",
    signIn: "Entrar",
    signingIn: "Entrando",
    signedInAs: (name) => `Entraches: xogas como ${name}.`,
    orPasskey: "Ou, cunha chave de acceso que garda este dispositivo:",
    passkeySignIn: "Entrar cunha chave de acceso",
    orProvider: "Ou, co provedor de contas deste sitio:",
    providerSignIn: "Entrar coa túa conta",
    noPlayerYet: "Aínda non xoga ningún xogador neste navegador.",
    toLobby: "Á entrada",
    settingsTitle: "O teu xogador",
    name: "Nome",
    rename: "Cambiar o nome",
    renamed: "Nome cambiado.",
    renaming: "Cambiando o nome",
    publicPage: " Amosar as miñas puntuacións e partidas na miña páxina",
    yourPage: "a túa páxina",
    changing: "Cambiando",
    otherDevice: "Entrar noutro dispositivo",
    otherDeviceText: "Amosa aquí un código e escríbeo no outro dispositivo, en “Entrar”.",
    showCode: "Amosar un código de entrada",
    codeIs: "O teu código: ",
    codeValid: (minutes) => (pluralOf(minutes) === "one" ? ` Válido durante ${number(minutes)} minuto, unha vez.` : ` Válido durante ${number(minutes)} minutos, unha vez.`),
    askingCode: "Pedindo un código",
    passkeys: "Chaves de acceso",
    passkeysText: "Unha chave de acceso faite entrar en calquera dispositivo que a garde (sincronizada polo teu móbil ou xestor de contrasinais), sen nada que escribir.",
    noPasskeys: "Aínda non hai chaves de acceso.",
    passkeyName: "Nome da nova chave de acceso",
    thisDevice: "Este dispositivo",
    addPasskey: "Engadir unha chave de acceso",
    added: (name) => `Chave de acceso “${name}” engadida.`,
    addingPasskey: "Engadindo unha chave de acceso",
    deletePasskey: "Borrar",
    deleting: "Borrando a chave de acceso",
    passkeyLine: (p, made, used) => `${p.name} · creada o ${made}${used ? ` · usada por última vez o ${used}` : ""}${p.synced ? " · sincronizada" : ""}`,
    notifications: "Notificacións",
    thisBrowser: "Neste navegador",
    browserOn: "Este navegador amosa unha notificación cando unha mesa te agarda mentres estás noutra parte.",
    browserOff: "A este navegador díxoselle que non amose notificacións; os axustes do sitio poden volver permitilas.",
    browserNone: "Este navegador non amosa notificacións.",
    browserAsk: "Avisarme neste navegador cando me toque xogar",
    fromServer: "Desde o servidor, cando non estou na mesa",
    tellMe: "Avisarme cando",
    events: {
      move: " me toque xogar",
      trade: " me ofrezan un intercambio",
      window: " poida responder a unha carta xogada (unha reacción)",
      ended: " remate unha partida miña",
      rematch: " se abra unha revancha",
    },
    by: "Por",
    channels: { webhook: " webhook", email: " correo electrónico" },
    awayOnly: " só sobre mesas que non teño abertas",
    quiet: " Horas de silencio, desde as ",
    quietTo: " ata as ",
    quietFrom: "comezo das horas de silencio",
    quietUntil: "fin das horas de silencio",
    timeZone: "Fuso horario ",
    email: "Enderezo de correo ",
    noEmail: "Este servidor non envía correos.",
    save: "Gardar",
    saved: "Gardado.",
    saving: "Gardando as notificacións",
    webhook: "Webhook",
    webhookText: "Un URL teu (https) ao que se envía cada aviso, asinado co segredo de abaixo.",
    webhookUrl: "URL ",
    webhookFormat: "Formato ",
    formats: { json: "JSON simple", discord: "Discord", slack: "Slack" },
    setWebhook: "Definir o webhook",
    removeWebhook: "Quitalo",
    webhookSet: "Webhook definido.",
    webhookRemoved: "Webhook quitado.",
    settingWebhook: "Definindo o webhook",
    secret: "Segredo de sinatura ",
    leaving: "Saír",
    signOut: "Pechar a sesión",
    signOutEverywhere: "Pechar a sesión en todos os dispositivos",
    erase: "Borrar o meu xogador",
    eraseConfirm: (name) => `Borrar ${name}? O nome, as sesións, as chaves de acceso e a lista de mesas desaparecen para sempre; as partidas conservan o posto como “Un antigo xogador”.`,
    signingOut: "Pechando a sesión",
    erasing: "Borrando",
  },
  es: {
    signInTitle: "Entrar",
    signInText: "Entra como el jugador que eres en otro dispositivo: tus mesas vienen contigo.",
    switching: (name) => `En este navegador juegas como ${name}; entrar como otro jugador lo cambia.`,
    codeLabel: "Código mostrado en tu otro dispositivo",
    codeHint: "En un dispositivo donde hayas entrado: ajustes y luego “Mostrar un código de entrada”.",
    signIn: "Entrar",
    signingIn: "Entrando",
    signedInAs: (name) => `Has entrado: juegas como ${name}.`,
    orPasskey: "O, con una llave de acceso que guarda este dispositivo:",
    passkeySignIn: "Entrar con una llave de acceso",
    orProvider: "O, con el proveedor de cuentas de este sitio:",
    providerSignIn: "Entrar con tu cuenta",
    noPlayerYet: "Todavía no juega ningún jugador en este navegador.",
    toLobby: "A la entrada",
    settingsTitle: "Tu jugador",
    name: "Nombre",
    rename: "Cambiar el nombre",
    renamed: "Nombre cambiado.",
    renaming: "Cambiando el nombre",
    publicPage: " Mostrar mis puntuaciones y partidas en mi página",
    yourPage: "tu página",
    changing: "Cambiando",
    otherDevice: "Entrar en otro dispositivo",
    otherDeviceText: "Muestra aquí un código y escríbelo en el otro dispositivo, en “Entrar”.",
    showCode: "Mostrar un código de entrada",
    codeIs: "Tu código: ",
    codeValid: (minutes) => (pluralOf(minutes) === "one" ? ` Válido durante ${number(minutes)} minuto, una vez.` : ` Válido durante ${number(minutes)} minutos, una vez.`),
    askingCode: "Pidiendo un código",
    passkeys: "Llaves de acceso",
    passkeysText: "Una llave de acceso te hace entrar en cualquier dispositivo que la guarde (sincronizada por tu móvil o gestor de contraseñas), sin nada que escribir.",
    noPasskeys: "Todavía no hay llaves de acceso.",
    passkeyName: "Nombre de la nueva llave de acceso",
    thisDevice: "Este dispositivo",
    addPasskey: "Añadir una llave de acceso",
    added: (name) => `Llave de acceso “${name}” añadida.`,
    addingPasskey: "Añadiendo una llave de acceso",
    deletePasskey: "Borrar",
    deleting: "Borrando la llave de acceso",
    passkeyLine: (p, made, used) => `${p.name} · creada el ${made}${used ? ` · usada por última vez el ${used}` : ""}${p.synced ? " · sincronizada" : ""}`,
    notifications: "Notificaciones",
    thisBrowser: "En este navegador",
    browserOn: "Este navegador muestra una notificación cuando una mesa te espera mientras estás en otra parte.",
    browserOff: "A este navegador se le dijo que no mostrara notificaciones; los ajustes del sitio pueden volver a permitirlas.",
    browserNone: "Este navegador no muestra notificaciones.",
    browserAsk: "Avisarme en este navegador cuando me toque jugar",
    fromServer: "Desde el servidor, cuando no estoy en la mesa",
    tellMe: "Avisarme cuando",
    events: {
      move: " me toque jugar",
      trade: " me ofrezcan un intercambio",
      window: " pueda responder a una carta jugada (una reacción)",
      ended: " termine una partida mía",
      rematch: " se abra una revancha",
    },
    by: "Por",
    channels: { webhook: " webhook", email: " correo electrónico" },
    awayOnly: " solo sobre mesas que no tengo abiertas",
    quiet: " Horas de silencio, de ",
    quietTo: " a ",
    quietFrom: "inicio de las horas de silencio",
    quietUntil: "fin de las horas de silencio",
    timeZone: "Zona horaria ",
    email: "Dirección de correo ",
    noEmail: "Este servidor no envía correos.",
    save: "Guardar",
    saved: "Guardado.",
    saving: "Guardando las notificaciones",
    webhook: "Webhook",
    webhookText: "Una URL tuya (https) a la que se envía cada aviso, firmado con el secreto de abajo.",
    webhookUrl: "URL ",
    webhookFormat: "Formato ",
    formats: { json: "JSON simple", discord: "Discord", slack: "Slack" },
    setWebhook: "Definir el webhook",
    removeWebhook: "Quitarlo",
    webhookSet: "Webhook definido.",
    webhookRemoved: "Webhook quitado.",
    settingWebhook: "Definiendo el webhook",
    secret: "Secreto de firma ",
    leaving: "Salir",
    signOut: "Cerrar la sesión",
    signOutEverywhere: "Cerrar la sesión en todos los dispositivos",
    erase: "Borrar mi jugador",
    eraseConfirm: (name) => `¿Borrar a ${name}? El nombre, las sesiones, las llaves de acceso y la lista de mesas desaparecen para siempre; las partidas conservan el puesto como “Un antiguo jugador”.`,
    signingOut: "Cerrando la sesión",
    erasing: "Borrando",
  },
});


const EVENTS = ["move", "trade", "window", "ended", "rematch"];
const CHANNELS = ["webhook", "email"];
const FORMATS = ["json", "discord", "slack"];
const when = (ms) => date(ms);
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

// --- signing in on this device ---------------------------------------------------------------

export async function showSignIn(root) {
  const methods = await signInMethods();
  const me = player();
  const code = h("input", { type: "text", id: "sign-in-code", "data-testid": "code-input", autocomplete: "one-time-code",
    autocapitalize: "characters", spellcheck: "false", maxlength: 20, required: true });
  const done = (who) => {
    message(WORDS.signedInAs(who.name), "info");
    location.hash = "#/";
  };
  const byCode = async (e) => {
    e.preventDefault();
    try {
      done(await signInWithCode(code.value));
    } catch (err) {
      errorMessage(err, WORDS.signingIn);
    }
  };
  const byPasskey = async () => {
    try {
      done(await signInWithPasskey());
    } catch (err) {
      errorMessage(err, WORDS.signingIn);
    }
  };
  clear(root, h("div", { class: "account", "data-testid": "sign-in" },
    h("h1", {}, WORDS.signInTitle),
    h("p", {}, WORDS.signInText),
    me ? h("p", { class: "muted" }, WORDS.switching(me.name)) : null,
    h("form", { class: "panel sign-in-form", onsubmit: byCode },
      h("label", { for: "sign-in-code" }, WORDS.codeLabel), " ", code, " ",
      h("button", { type: "submit", class: "primary", "data-testid": "code-sign-in" }, WORDS.signIn),
      h("p", { class: "muted" }, WORDS.codeHint)),
    methods.passkeys && passkeysHere() ? h("div", { class: "panel" }, h("p", {}, WORDS.orPasskey),
      h("button", { "data-testid": "passkey-sign-in", onclick: byPasskey }, WORDS.passkeySignIn)) : null,
    methods.oidc ? h("div", { class: "panel" }, h("p", {}, WORDS.orProvider),
      h("a", { class: "button", href: OIDC_START, "data-testid": "oidc-sign-in" }, WORDS.providerSignIn)) : null));
}

// --- the settings ------------------------------------------------------------------------------

export async function showSettings(root) {
  const me = await refresh().catch(() => player());
  if (!me) {
    clear(root, h("div", { class: "account" }, h("h1", {}, WORDS.settingsTitle), h("p", {}, WORDS.noPlayerYet),
      h("p", {}, h("a", { href: "#/", class: "button" }, WORDS.toLobby), " ", h("a", { href: "#/sign-in", class: "button" }, WORDS.signIn))));
    return;
  }
  const methods = await signInMethods();
  const [notices, passkeys] = await Promise.all([
    get("/players/me/notifications").catch((err) => { errorMessage(err, WORDS.notifications); return null; }),
    methods.passkeys ? get("/players/me/passkeys").then((a) => a.passkeys).catch(() => []) : [],
  ]);
  const hook = notices && notices.webhook ? await get("/players/me/webhook").catch(() => null) : null;
  clear(root, h("div", { class: "account", "data-testid": "settings" },
    h("h1", {}, WORDS.settingsTitle),
    you(me),
    otherDevice(methods, passkeys, root),
    h("section", { class: "panel", "aria-labelledby": "notifications-title" },
      h("h2", { id: "notifications-title" }, WORDS.notifications),
      thisBrowser(root),
      notices ? serverNotices(notices) : null,
      notices ? webhookForm(hook, root) : null),
    leaving(me)));
}

function you(me) {
  const name = h("input", { type: "text", id: "player-name", maxlength: 40, value: me.name, required: true, "data-testid": "rename-input" });
  const rename = async (e) => {
    e.preventDefault();
    try {
      await change({ name: name.value }); // the page follows the new name (main.js)
      message(WORDS.renamed, "info");
    } catch (err) {
      errorMessage(err, WORDS.renaming);
    }
  };
  const shown = h("input", { type: "checkbox", checked: me.public, "data-testid": "public",
    onchange: async (e) => {
      try {
        await change({ public: e.target.checked });
      } catch (err) {
        e.target.checked = !e.target.checked;
        errorMessage(err, WORDS.changing);
      }
    } });
  return h("section", { class: "panel" },
    h("form", { class: "row", onsubmit: rename },
      h("label", { for: "player-name" }, WORDS.name), name, h("button", { type: "submit", "data-testid": "rename" }, WORDS.rename)),
    h("p", {}, h("label", {}, shown, WORDS.publicPage), " (", h("a", { href: `#/player/${me.player_id}` }, WORDS.yourPage), ")"));
}

function otherDevice(methods, passkeys, root) {
  const shown = h("p", { class: "code-shown", "aria-live": "polite" });
  const showCode = async () => {
    try {
      const answer = await post("/players/me/codes");
      clear(shown, WORDS.codeIs, h("strong", { class: "code", "data-testid": "code" }, answer.code),
        WORDS.codeValid(Math.round(answer.expires_in / 60)));
    } catch (err) {
      errorMessage(err, WORDS.askingCode);
    }
  };
  const keyName = h("input", { type: "text", id: "passkey-name", maxlength: 60, value: WORDS.thisDevice });
  const add = async () => {
    try {
      const made = await addPasskey(keyName.value.trim());
      message(WORDS.added(made.name), "info");
      await showSettings(root);
    } catch (err) {
      errorMessage(err, WORDS.addingPasskey);
    }
  };
  const remove = (p) => async () => {
    try {
      await call("DELETE", `/players/me/passkeys/${encodeURIComponent(p.passkey_id)}`);
      await showSettings(root);
    } catch (err) {
      errorMessage(err, WORDS.deleting);
    }
  };
  return h("section", { class: "panel" },
    h("h2", {}, WORDS.otherDevice),
    h("p", {}, WORDS.otherDeviceText),
    h("button", { "data-testid": "show-code", onclick: showCode }, WORDS.showCode), shown,
    methods.passkeys && passkeysHere() ? [
      h("h3", {}, WORDS.passkeys), h("p", { class: "muted" }, WORDS.passkeysText),
      passkeys.length ? h("ul", { class: "passkeys", "data-testid": "passkeys" }, passkeys.map((p) => h("li", {},
        WORDS.passkeyLine(p, when(p.created_ms), p.last_used_ms ? when(p.last_used_ms) : null), " ",
        h("button", { onclick: remove(p), "aria-label": `${WORDS.deletePasskey}: ${p.name}` }, WORDS.deletePasskey))))
        : h("p", { class: "muted" }, WORDS.noPasskeys),
      h("div", { class: "row" }, h("label", { for: "passkey-name" }, WORDS.passkeyName), keyName,
        h("button", { "data-testid": "add-passkey", onclick: add }, WORDS.addPasskey))] : null);
}

// This browser's own notifications: asked from this button, never on load.
function thisBrowser(root) {
  const state = permission();
  const ask = async () => {
    await askPermission();
    await showSettings(root);
  };
  return h("div", {},
    h("h3", {}, WORDS.thisBrowser),
    !notificationsHere() ? h("p", { class: "muted" }, WORDS.browserNone)
      : state === "granted" ? h("p", { "data-testid": "browser-notifications" }, WORDS.browserOn)
        : state === "denied" ? h("p", { class: "muted" }, WORDS.browserOff)
          : h("button", { "data-testid": "allow-notifications", onclick: ask }, WORDS.browserAsk));
}

function serverNotices(n) {
  const events = EVENTS.map((e) => h("label", { class: "option" },
    h("input", { type: "checkbox", "data-event": e, checked: n.events.includes(e) }), WORDS.events[e]));
  const channels = CHANNELS.map((c) => h("label", { class: "option" },
    h("input", { type: "checkbox", "data-channel": c, checked: n.channels.includes(c) }), WORDS.channels[c]));
  const away = h("input", { type: "checkbox", checked: n.away_only, "data-testid": "away-only" });
  const quiet = h("input", { type: "checkbox", checked: !!n.quiet_hours, "data-testid": "quiet" });
  const from = h("input", { type: "time", value: n.quiet_hours ? n.quiet_hours.start : "23:00", "aria-label": WORDS.quietFrom, "data-testid": "quiet-start" });
  const to = h("input", { type: "time", value: n.quiet_hours ? n.quiet_hours.end : "08:00", "aria-label": WORDS.quietUntil, "data-testid": "quiet-end" });
  const zone = h("input", { type: "text", id: "quiet-zone", value: n.quiet_hours ? n.quiet_hours.time_zone : browserZone(), "data-testid": "quiet-zone" });
  const email = h("input", { type: "email", id: "notify-email", value: n.email || "", disabled: !n.email_sending, maxlength: 254, "data-testid": "email" });
  const save = async (e) => {
    e.preventDefault();
    const form = e.target;
    const body = {
      events: EVENTS.filter((x) => form.querySelector(`[data-event="${x}"]`).checked),
      channels: CHANNELS.filter((x) => form.querySelector(`[data-channel="${x}"]`).checked),
      away_only: away.checked,
      quiet_hours: quiet.checked ? { start: from.value, end: to.value, time_zone: zone.value.trim() || browserZone() } : null,
    };
    if (n.email_sending) body.email = email.value.trim() || null;
    try {
      await call("PATCH", "/players/me/notifications", { body });
      message(WORDS.saved, "info");
    } catch (err) {
      errorMessage(err, WORDS.saving);
    }
  };
  return h("form", { class: "notices", onsubmit: save, "data-testid": "notices" },
    h("h3", {}, WORDS.fromServer),
    h("fieldset", {}, h("legend", {}, WORDS.tellMe), events),
    h("fieldset", {}, h("legend", {}, WORDS.by), channels),
    h("p", {}, h("label", {}, away, WORDS.awayOnly)),
    h("p", {}, h("label", {}, quiet, WORDS.quiet), from, WORDS.quietTo, to, " ", h("label", { for: "quiet-zone" }, WORDS.timeZone), zone),
    h("p", {}, h("label", { for: "notify-email" }, WORDS.email), email, n.email_sending ? null : h("span", { class: "muted" }, " ", WORDS.noEmail)),
    h("button", { type: "submit", class: "primary", "data-testid": "save-notices" }, WORDS.save));
}

function webhookForm(hook, root) {
  const url = h("input", { type: "url", id: "webhook-url", value: hook ? hook.url : "", placeholder: "https://", required: true, "data-testid": "webhook-url" });
  const format = h("select", { id: "webhook-format" }, FORMATS.map((f) => h("option", { value: f, selected: hook ? hook.format === f : f === "json" }, WORDS.formats[f])));
  const set = async (e) => {
    e.preventDefault();
    try {
      await call("PUT", "/players/me/webhook", { body: { url: url.value.trim(), format: format.value } });
      message(WORDS.webhookSet, "info");
      await showSettings(root);
    } catch (err) {
      errorMessage(err, WORDS.settingWebhook);
    }
  };
  const remove = async () => {
    try {
      await call("DELETE", "/players/me/webhook");
      message(WORDS.webhookRemoved, "info");
      await showSettings(root);
    } catch (err) {
      errorMessage(err, WORDS.settingWebhook);
    }
  };
  return h("form", { class: "webhook", onsubmit: set },
    h("h3", {}, WORDS.webhook),
    h("p", { class: "muted" }, WORDS.webhookText),
    h("p", {}, h("label", { for: "webhook-url" }, WORDS.webhookUrl), url, " ", h("label", { for: "webhook-format" }, WORDS.webhookFormat), format),
    hook ? h("p", {}, h("label", { for: "webhook-secret" }, WORDS.secret),
      h("input", { type: "text", id: "webhook-secret", readonly: true, value: hook.secret, size: 40, "data-testid": "webhook-secret" })) : null,
    h("button", { type: "submit", "data-testid": "set-webhook" }, WORDS.setWebhook), " ",
    hook ? h("button", { type: "button", onclick: remove, "data-testid": "remove-webhook" }, WORDS.removeWebhook) : null);
}

function leaving(me) {
  const out = (everywhere) => async () => {
    try {
      await signOut(everywhere);
      location.hash = "#/";
    } catch (err) {
      errorMessage(err, WORDS.signingOut);
    }
  };
  const eraseMe = async () => {
    if (!window.confirm(WORDS.eraseConfirm(me.name))) return;
    try {
      await erase();
      location.hash = "#/";
    } catch (err) {
      errorMessage(err, WORDS.erasing);
    }
  };
  return h("section", { class: "panel" },
    h("h2", {}, WORDS.leaving),
    h("div", { class: "row" },
      h("button", { "data-testid": "sign-out", onclick: out(false) }, WORDS.signOut),
      h("button", { "data-testid": "sign-out-everywhere", onclick: out(true) }, WORDS.signOutEverywhere),
      h("button", { class: "danger", "data-testid": "erase", onclick: eraseMe }, WORDS.erase)));
}
