// The app's words in English, Finnish and Swedish. The choice is kept on the device; the
// default is the first of the browser's languages the app has.
const WORDS = {
  en: {
    storage: "On this device: {used} MB of {quota} MB the browser allows.", storageKept: "The browser keeps it.",
    storageMayGo: "The browser may clear it when space runs short: send your work when you can.",
    storageFull: "Storage is nearly full: get online so your work is sent.",
    analytics: "Your results", daysWorked: "Days worked", perDay: "Per day", day: "Day", a_collected: "Collected",
    a_skipped: "Skipped", a_inspected: "Inspected", a_passed: "Passed", a_failed: "Failed", a_minutesPerTask: "Minutes per task",
    receiveTitle: "Receive a sample", receptions: "Your receptions", receiveProduct: "Product: scan or type its barcode",
    receiveShelf: "Shelf", receive_condition: "Condition", receive_priority: "Priority", receive_decommission: "Afterwards",
    inspectBefore: "Inspect before", receive: "Receive", receiveMissing: "Scan the product and the shelf first.",
    receivedSaved: "Received: {code}", notSent: "Not yet sent", replacementRequested: "Damaged: a replacement was asked for",
    acknowledgement: "Printable acknowledgement", receiving: "Receiving samples",
    language: "Language", signIn: "Sign in", signOut: "Sign out", username: "User name", password: "Password",
    signInTitle: "Sign in to inspect", wrongPassword: "The user name or password is wrong.",
    throttled: "Too many attempts. Try again in a moment.", formExpired: "The sign-in form expired; try again.",
    needsNetwork: "This needs the network, which is not reachable now. Try again when you are online.",
    sessionEnded: "Your session has ended. Sign in again: your unsent work is kept and sent after that.",
    notInspector: "This app is for inspectors. Your role is {role}.",
    modes: "Start inspecting", addTask: "Add task", batches: "Your batches",
    inProgress: "In progress", completed: "Completed", cancelled: "Cancelled", none: "None.",
    expiresSoon: "Expires soon", expires: "Expires {time}", tasks: "{n} tasks",
    mode0: "Wholesale", mode1: "New product", mode2: "Existing product", mode3: "Reinspection", mode4: "Ad hoc",
    status0: "Assigned", status1: "Collecting", status2: "Collected", status3: "Inspecting", status4: "Inspected",
    status5: "Ready to submit", status6: "Submitted", status7: "Cancelled",
    allocateTitle: "Add task: {mode}", location: "Location", amountBy: "Ask for", byQuantity: "A number of products",
    byMinutes: "Minutes of work", quantity: "Products", minutes: "Minutes", allocate: "Allocate", back: "Back",
    noLocations: "No location of the right kind for this mode.",
    collection: "Collection", startCollection: "Start collection", scan: "Scan or type a barcode",
    scanHelp: "A scanner types the code and Enter. Camera scanning needs BarcodeDetector, which this browser lacks.",
    scanCamera: "Scan with the camera", collected: "Collected", pending: "To collect", skipped: "Skipped",
    skip: "Skip", skipReason: "Why is it skipped?", skip0: "Unable to collect", skip1: "Out of stock",
    skip2: "No longer available", cancel: "Cancel", confirm: "Confirm", finishCollection: "Finish collection",
    scanNoMatch: "No task of this batch has the code {code}.", scanMatched: "Collected: {name}",
    shelf: "Shelf {shelf}", aisle: "Aisle {aisle}", packageSize: "Package", inspect: "Inspect",
    inspected: "Inspected", passed: "Passed", failed: "Failed", submit: "Submit batch",
    submitConfirm: "Submit this batch? It cannot be changed afterwards.", submitted: "Submitted",
    inspection: "Inspection", supplierValue: "Supplier's value", instruction: "Instruction",
    measured: "Measured value", note: "Note", progressGroup: "{group}: {done} of {all}", progressTotal: "{done} of {all} in total",
    verdict1: "Pass", verdict3: "Fail", verdict2: "Warning", verdict0: "Unable",
    photos: "Photos", takePhoto: "Take a photo", detach: "Detach", finishInspection: "Finish inspection",
    allDone: "Every attribute has a verdict.", previous: "Previous", next: "Next",
    unsent: "{n} not yet sent", allSent: "All sent", offline: "Offline", refused: "Refused by the server",
    refusedHelp: "The server refused these actions. Read the reason; nothing else is lost.", dismiss: "Dismiss",
    photosUnsent: "{n} photos not yet sent", noDatasheet: "No datasheet for this task is cached; open it once online.",
    loading: "Loading…", done: "Done", verdictGiven: "Verdict: {v}", skipToContent: "Skip to content", pauseCollection: "Pause", resumeCollection: "Resume collection",
  },
  fi: {
    storage: "Tällä laitteella: {used} Mt selaimen sallimasta {quota} Mt:sta.", storageKept: "Selain säilyttää sen.",
    storageMayGo: "Selain voi tyhjentää sen tilan käydessä vähiin: lähetä työsi, kun voit.",
    storageFull: "Tila on lähes täynnä: mene verkkoon, jotta työsi lähetetään.",
    analytics: "Tuloksesi", daysWorked: "Työpäiviä", perDay: "Päivittäin", day: "Päivä", a_collected: "Kerätty",
    a_skipped: "Ohitettu", a_inspected: "Tarkastettu", a_passed: "Hyväksytty", a_failed: "Hylätty", a_minutesPerTask: "Minuuttia tehtävää kohden",
    receiveTitle: "Vastaanota näyte", receptions: "Vastaanottosi", receiveProduct: "Tuote: skannaa tai kirjoita viivakoodi",
    receiveShelf: "Hylly", receive_condition: "Kunto", receive_priority: "Kiireellisyys", receive_decommission: "Jälkeenpäin",
    inspectBefore: "Tarkastettava viimeistään", receive: "Vastaanota", receiveMissing: "Skannaa ensin tuote ja hylly.",
    receivedSaved: "Vastaanotettu: {code}", notSent: "Lähettämättä", replacementRequested: "Vaurioitunut: korvaavaa pyydettiin",
    acknowledgement: "Tulostettava kuittaus", receiving: "Näytteiden vastaanotto",
    language: "Kieli", signIn: "Kirjaudu", signOut: "Kirjaudu ulos", username: "Käyttäjätunnus", password: "Salasana",
    signInTitle: "Kirjaudu tarkastamaan", wrongPassword: "Käyttäjätunnus tai salasana on väärä.",
    throttled: "Liian monta yritystä. Yritä hetken päästä uudelleen.", formExpired: "Kirjautumislomake vanheni; yritä uudelleen.",
    needsNetwork: "Tämä tarvitsee verkkoyhteyden, jota ei nyt ole. Yritä uudelleen, kun olet verkossa.",
    sessionEnded: "Istuntosi päättyi. Kirjaudu uudelleen: lähettämättömät työt säilyvät ja lähetetään sen jälkeen.",
    notInspector: "Tämä sovellus on tarkastajille. Roolisi on {role}.",
    modes: "Aloita tarkastus", addTask: "Lisää tehtävä", batches: "Eräsi",
    inProgress: "Kesken", completed: "Valmiit", cancelled: "Perutut", none: "Ei yhtään.",
    expiresSoon: "Vanhenee pian", expires: "Vanhenee {time}", tasks: "{n} tehtävää",
    mode0: "Tukku", mode1: "Uusi tuote", mode2: "Olemassa oleva tuote", mode3: "Uusintatarkastus", mode4: "Tilapäinen",
    status0: "Jaettu", status1: "Keräily", status2: "Kerätty", status3: "Tarkastus", status4: "Tarkastettu",
    status5: "Valmis lähetettäväksi", status6: "Lähetetty", status7: "Peruttu",
    allocateTitle: "Lisää tehtävä: {mode}", location: "Paikka", amountBy: "Pyydä", byQuantity: "Tuotteiden määrä",
    byMinutes: "Työminuutit", quantity: "Tuotteita", minutes: "Minuutteja", allocate: "Jaa", back: "Takaisin",
    noLocations: "Tälle tilalle sopivaa paikkaa ei ole.",
    collection: "Keräily", startCollection: "Aloita keräily", scan: "Skannaa tai kirjoita viivakoodi",
    scanHelp: "Lukija kirjoittaa koodin ja Enterin. Kameralla skannaus vaatii BarcodeDetectorin, jota tässä selaimessa ei ole.",
    scanCamera: "Skannaa kameralla", collected: "Kerätty", pending: "Kerättävä", skipped: "Ohitettu",
    skip: "Ohita", skipReason: "Miksi se ohitetaan?", skip0: "Ei voitu kerätä", skip1: "Loppu varastosta",
    skip2: "Ei enää saatavilla", cancel: "Peruuta", confirm: "Vahvista", finishCollection: "Päätä keräily",
    scanNoMatch: "Tämän erän tehtävissä ei ole koodia {code}.", scanMatched: "Kerätty: {name}",
    shelf: "Hylly {shelf}", aisle: "Käytävä {aisle}", packageSize: "Pakkaus", inspect: "Tarkasta",
    inspected: "Tarkastettu", passed: "Hyväksytty", failed: "Hylätty", submit: "Lähetä erä",
    submitConfirm: "Lähetetäänkö erä? Sitä ei voi muuttaa jälkeenpäin.", submitted: "Lähetetty",
    inspection: "Tarkastus", supplierValue: "Toimittajan arvo", instruction: "Ohje",
    measured: "Mitattu arvo", note: "Huomautus", progressGroup: "{group}: {done}/{all}", progressTotal: "{done}/{all} yhteensä",
    verdict1: "Hyväksy", verdict3: "Hylkää", verdict2: "Varoitus", verdict0: "Ei voi arvioida",
    photos: "Kuvat", takePhoto: "Ota kuva", detach: "Poista", finishInspection: "Päätä tarkastus",
    allDone: "Jokaisella ominaisuudella on arvio.", previous: "Edellinen", next: "Seuraava",
    unsent: "{n} lähettämättä", allSent: "Kaikki lähetetty", offline: "Ei verkkoa", refused: "Palvelin hylkäsi",
    refusedHelp: "Palvelin hylkäsi nämä toimet. Lue syy; muuta ei menetetty.", dismiss: "Kuittaa",
    photosUnsent: "{n} kuvaa lähettämättä", noDatasheet: "Tehtävän tuotetietoja ei ole tallessa; avaa se kerran verkossa.",
    loading: "Ladataan…", done: "Valmis", verdictGiven: "Arvio: {v}", skipToContent: "Siirry sisältöön", pauseCollection: "Tauko", resumeCollection: "Jatka keräilyä",
  },
  sv: {
    storage: "På den här enheten: {used} MB av {quota} MB som webbläsaren tillåter.", storageKept: "Webbläsaren behåller det.",
    storageMayGo: "Webbläsaren kan rensa det när utrymmet tar slut: skicka ditt arbete när du kan.",
    storageFull: "Lagringen är nästan full: gå online så att ditt arbete skickas.",
    analytics: "Dina resultat", daysWorked: "Arbetsdagar", perDay: "Per dag", day: "Dag", a_collected: "Insamlade",
    a_skipped: "Överhoppade", a_inspected: "Inspekterade", a_passed: "Godkända", a_failed: "Underkända", a_minutesPerTask: "Minuter per uppgift",
    receiveTitle: "Ta emot ett prov", receptions: "Dina mottagningar", receiveProduct: "Produkt: skanna eller skriv streckkoden",
    receiveShelf: "Hylla", receive_condition: "Skick", receive_priority: "Prioritet", receive_decommission: "Efteråt",
    inspectBefore: "Inspektera före", receive: "Ta emot", receiveMissing: "Skanna produkten och hyllan först.",
    receivedSaved: "Mottagen: {code}", notSent: "Ej skickad", replacementRequested: "Skadad: en ersättare begärdes",
    acknowledgement: "Utskrivbart kvitto", receiving: "Mottagning av prover",
    language: "Språk", signIn: "Logga in", signOut: "Logga ut", username: "Användarnamn", password: "Lösenord",
    signInTitle: "Logga in för att inspektera", wrongPassword: "Användarnamnet eller lösenordet är fel.",
    throttled: "För många försök. Försök igen om en stund.", formExpired: "Inloggningsformuläret gick ut; försök igen.",
    needsNetwork: "Det här kräver nätverket, som inte nås nu. Försök igen när du är uppkopplad.",
    sessionEnded: "Din session har gått ut. Logga in igen: det som inte skickats sparas och skickas därefter.",
    notInspector: "Appen är för inspektörer. Din roll är {role}.",
    modes: "Börja inspektera", addTask: "Lägg till uppgift", batches: "Dina partier",
    inProgress: "Pågående", completed: "Klara", cancelled: "Avbrutna", none: "Inga.",
    expiresSoon: "Går snart ut", expires: "Går ut {time}", tasks: "{n} uppgifter",
    mode0: "Partihandel", mode1: "Ny produkt", mode2: "Befintlig produkt", mode3: "Ominspektion", mode4: "Ad hoc",
    status0: "Tilldelad", status1: "Insamling", status2: "Insamlad", status3: "Inspektion", status4: "Inspekterad",
    status5: "Klar att skicka", status6: "Skickad", status7: "Avbruten",
    allocateTitle: "Lägg till uppgift: {mode}", location: "Plats", amountBy: "Be om", byQuantity: "Ett antal produkter",
    byMinutes: "Arbetsminuter", quantity: "Produkter", minutes: "Minuter", allocate: "Tilldela", back: "Tillbaka",
    noLocations: "Ingen plats av rätt slag för det här läget.",
    collection: "Insamling", startCollection: "Börja insamling", scan: "Skanna eller skriv en streckkod",
    scanHelp: "En skanner skriver koden och Enter. Kameraskanning kräver BarcodeDetector, som den här webbläsaren saknar.",
    scanCamera: "Skanna med kameran", collected: "Insamlad", pending: "Att samla in", skipped: "Överhoppad",
    skip: "Hoppa över", skipReason: "Varför hoppas den över?", skip0: "Kunde inte samlas in", skip1: "Slut i lager",
    skip2: "Inte längre tillgänglig", cancel: "Avbryt", confirm: "Bekräfta", finishCollection: "Avsluta insamling",
    scanNoMatch: "Ingen uppgift i partiet har koden {code}.", scanMatched: "Insamlad: {name}",
    shelf: "Hylla {shelf}", aisle: "Gång {aisle}", packageSize: "Förpackning", inspect: "Inspektera",
    inspected: "Inspekterad", passed: "Godkänd", failed: "Underkänd", submit: "Skicka partiet",
    submitConfirm: "Skicka partiet? Det kan inte ändras efteråt.", submitted: "Skickad",
    inspection: "Inspektion", supplierValue: "Leverantörens värde", instruction: "Instruktion",
    measured: "Uppmätt värde", note: "Anteckning", progressGroup: "{group}: {done} av {all}", progressTotal: "{done} av {all} totalt",
    verdict1: "Godkänn", verdict3: "Underkänn", verdict2: "Varning", verdict0: "Kan inte bedöma",
    photos: "Foton", takePhoto: "Ta ett foto", detach: "Ta bort", finishInspection: "Avsluta inspektionen",
    allDone: "Varje attribut har ett omdöme.", previous: "Föregående", next: "Nästa",
    unsent: "{n} ej skickade", allSent: "Allt skickat", offline: "Offline", refused: "Avvisat av servern",
    refusedHelp: "Servern avvisade de här åtgärderna. Läs orsaken; inget annat har gått förlorat.", dismiss: "Stäng",
    photosUnsent: "{n} foton ej skickade", noDatasheet: "Uppgiftens produktdata finns inte sparad; öppna den en gång uppkopplad.",
    loading: "Laddar…", done: "Klar", verdictGiven: "Omdöme: {v}", skipToContent: "Hoppa till innehållet", pauseCollection: "Pausa", resumeCollection: "Fortsätt insamlingen",
  },
};

export const LANGUAGES = Object.keys(WORDS);
const KEY = "itemaudit.language";
let current = pick();

function pick() {
  const kept = localStorage.getItem(KEY);
  if (kept && WORDS[kept]) return kept;
  for (const tag of navigator.languages || []) {
    const base = tag.toLowerCase().split("-")[0];
    if (WORDS[base]) return base;
  }
  return "en";
}

/** The current language (en, fi or sv). */
export function language() { return current; }

/** Keeps `lang` as the user's choice. */
export function setLanguage(lang) {
  if (!WORDS[lang]) return;
  current = lang;
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
}

/** The word for `key` in the current language, `{name}` filled from `values`. */
export function t(key, values = {}) {
  const text = WORDS[current][key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}
