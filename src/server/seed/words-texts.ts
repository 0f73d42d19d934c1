import { Random } from './random';
import { type Hobby } from './words-catalogue';

// ---------------------------------------------------------------------------------------------
// Text templates. Each takes a context and returns [en, de]; couples speak as "we".

export interface TextCtx {
  name: string;
  plural: boolean;
  cityEn: string;
  cityDe: string;
  hobby: Hobby;
  langsEn: string;
  langsDe: string;
}
type Template = (c: TextCtx) => [string, string];

export const INTROS: readonly Template[] = [
  (c) => c.plural
    ? [`Hi, we're ${c.name} from ${c.cityEn}.`, `Hallo, wir sind ${c.name} aus ${c.cityDe}.`]
    : [`Hi, I'm ${c.name} from ${c.cityEn}.`, `Hallo, ich bin ${c.name} aus ${c.cityDe}.`],
  (c) => [`Greetings from ${c.cityEn}!`, `Liebe Grüße aus ${c.cityDe}!`],
  (c) => c.plural
    ? [`${c.cityEn} is our home, and we love to share a bit of it.`, `${c.cityDe} ist unser Zuhause, und davon erzählen wir gern.`]
    : [`${c.cityEn} is my home, and I love to share a bit of it.`, `${c.cityDe} ist mein Zuhause, und davon erzähle ich gern.`],
  (c) => c.plural
    ? [`Welcome to our channel, live from ${c.cityEn}.`, `Willkommen auf unserem Kanal, live aus ${c.cityDe}.`]
    : [`Welcome to my channel, live from ${c.cityEn}.`, `Willkommen auf meinem Kanal, live aus ${c.cityDe}.`],
];

export const HOBBY_LINES: readonly Template[] = [
  (c) => c.plural
    ? [`Nothing beats ${c.hobby.en} for us.`, `Für uns geht nichts über ${c.hobby.de}.`]
    : [`Nothing beats ${c.hobby.en} for me.`, `Für mich geht nichts über ${c.hobby.de}.`],
  (c) => c.plural
    ? [`Our favourite topic? Definitely ${c.hobby.en}.`, `Unser Lieblingsthema? Ganz klar ${c.hobby.de}.`]
    : [`My favourite topic? Definitely ${c.hobby.en}.`, `Mein Lieblingsthema? Ganz klar ${c.hobby.de}.`],
  (c) => c.plural
    ? [`When it comes to ${c.hobby.en}, there's no stopping us.`, `Wenn es um ${c.hobby.de} geht, sind wir nicht zu bremsen.`]
    : [`When it comes to ${c.hobby.en}, there's no stopping me.`, `Wenn es um ${c.hobby.de} geht, bin ich nicht zu bremsen.`],
  (c) => c.plural
    ? [`In our free time we're all about ${c.hobby.en}.`, `In unserer Freizeit dreht sich alles um ${c.hobby.de}.`]
    : [`In my free time I'm all about ${c.hobby.en}.`, `In meiner Freizeit dreht sich alles um ${c.hobby.de}.`],
];

export const CLOSINGS: readonly Template[] = [
  (c) => c.plural
    ? [`We chat in ${c.langsEn}, so just say hello.`, `Wir chatten auf ${c.langsDe} – sag einfach Hallo.`]
    : [`I chat in ${c.langsEn}, so just say hello.`, `Ich chatte auf ${c.langsDe} – sag einfach Hallo.`],
  (c) => c.plural
    ? [`Feel free to write to us in ${c.langsEn}.`, `Schreib uns gern auf ${c.langsDe}.`]
    : [`Feel free to write to me in ${c.langsEn}.`, `Schreib mir gern auf ${c.langsDe}.`],
  (c) => c.plural
    ? [`Drop by and chat with us in ${c.langsEn}!`, `Komm vorbei und plaudere mit uns auf ${c.langsDe}!`]
    : [`Drop by and chat with me in ${c.langsEn}!`, `Komm vorbei und plaudere mit mir auf ${c.langsDe}!`],
  (c) => c.plural
    ? [`Looking forward to meeting you – we speak ${c.langsEn}.`, `Wir freuen uns darauf, dich kennenzulernen – wir sprechen ${c.langsDe}.`]
    : [`Looking forward to meeting you – I speak ${c.langsEn}.`, `Ich freue mich darauf, dich kennenzulernen – ich spreche ${c.langsDe}.`],
];

const SLOGAN_HEADS: readonly [string, string][] = [
  ['Good vibes', 'Gute Laune'],
  ['Sunny mood', 'Sonnige Stimmung'],
  ['Cosy evenings', 'Gemütliche Abende'],
  ['Fresh coffee', 'Frischer Kaffee'],
  ['Late-night talks', 'Gespräche bis spät'],
  ['Warm words', 'Warme Worte'],
  ['Chill music', 'Entspannte Musik'],
  ['Big smiles', 'Ein breites Lächeln'],
  ['Sweet chats', 'Nette Plaudereien'],
];
const SLOGAN_TAILS: readonly [string, string][] = [
  ['great conversation', 'tolle Gespräche'],
  ['lots of laughter', 'viel Gelächter'],
  ['a warm welcome', 'ein herzliches Willkommen'],
  ['new stories every day', 'jeden Tag neue Geschichten'],
  ['plenty of fun', 'jede Menge Spaß'],
  ['honest answers', 'ehrliche Antworten'],
  ['a relaxed atmosphere', 'eine entspannte Atmosphäre'],
];
const SLOGAN_STANDALONE: readonly Template[] = [
  () => ['Say hi and stay a while', 'Sag Hallo und bleib ein bisschen'],
  () => ['Come for the chat, stay for the smile', 'Komm zum Plaudern, bleib fürs Lächeln'],
  () => ['Always up for a good conversation', 'Immer offen für ein gutes Gespräch'],
  (c) => [`Your friendly face from ${c.cityEn}`, `Dein freundliches Gesicht aus ${c.cityDe}`],
  (c) => [`Let's talk about ${c.hobby.en}!`, `Lass uns über ${c.hobby.de} reden!`],
];

export function slogan(rng: Random, c: TextCtx): [string, string] {
  const r = rng.float();
  if (r < 0.5) {
    const [hEn, hDe] = rng.pick(SLOGAN_HEADS);
    const [tEn, tDe] = rng.chance(0.2) ? [c.hobby.en, c.hobby.de] : rng.pick(SLOGAN_TAILS);
    return [`${hEn} and ${tEn}`, `${hDe} und ${tDe}`];
  }
  if (r < 0.7) {
    const [hEn, hDe] = rng.pick(SLOGAN_HEADS);
    return [`${hEn}, live from ${c.cityEn}`, `${hDe}, live aus ${c.cityDe}`];
  }
  return rng.pick(SLOGAN_STANDALONE)(c);
}

export const VIDEO_TITLES: readonly Template[] = [
  () => ['Morning coffee chat', 'Morgendlicher Kaffeeplausch'],
  () => ['Q&A session', 'Fragerunde'],
  () => ['Weekend recap', 'Wochenendrückblick'],
  (c) => [`A day in ${c.cityEn}`, `Ein Tag in ${c.cityDe}`],
  (c) => [`Let's talk about ${c.hobby.en}`, `Reden wir über ${c.hobby.de}`],
  () => ['Cosy evening stream', 'Gemütlicher Abendstream'],
  () => ['Playlist of the week', 'Playlist der Woche'],
  () => ['Cooking together', 'Gemeinsam kochen'],
  () => ['Travel stories', 'Reisegeschichten'],
  () => ['Game night highlights', 'Highlights vom Spieleabend'],
  () => ['Dance practice', 'Tanztraining'],
  () => ['Yoga for beginners', 'Yoga für Anfänger'],
  () => ['Behind the scenes', 'Hinter den Kulissen'],
  () => ['Favourite books', 'Lieblingsbücher'],
  () => ['Outfit of the day', 'Outfit des Tages'],
  () => ['Karaoke night', 'Karaoke-Abend'],
  () => ['Movie night tips', 'Tipps für den Filmabend'],
  () => ['Sunday walk', 'Sonntagsspaziergang'],
  () => ['Rainy day chat', 'Plaudern an einem Regentag'],
  () => ['Birthday stream', 'Geburtstagsstream'],
  () => ['Language exchange', 'Sprachaustausch'],
  () => ['New year, new plans', 'Neues Jahr, neue Pläne'],
  () => ['Studio tour', 'Studio-Tour'],
  () => ['Cosplay preview', 'Cosplay-Vorschau'],
  () => ['Fitness routine', 'Fitness-Routine'],
  () => ['Coffee and questions', 'Kaffee und Fragen'],
];

export const GALLERY_TITLES: readonly Template[] = [
  (c) => [`Snapshots from ${c.cityEn}`, `Schnappschüsse aus ${c.cityDe}`],
  () => ['Autumn colours', 'Herbstfarben'],
  () => ['Summer days', 'Sommertage'],
  () => ['Winter walk', 'Winterspaziergang'],
  () => ['Studio moments', 'Studiomomente'],
  () => ['Favourite outfits', 'Lieblingsoutfits'],
  () => ['Café hopping', 'Café-Hopping'],
  () => ['Travel diary', 'Reisetagebuch'],
  () => ['Golden hour', 'Goldene Stunde'],
  () => ['Behind the camera', 'Hinter der Kamera'],
  () => ['Flower market', 'Blumenmarkt'],
  () => ['By the lake', 'Am See'],
  () => ['Rooftop evening', 'Abend auf der Dachterrasse'],
  () => ['Holiday memories', 'Urlaubserinnerungen'],
  () => ['Colourful everyday life', 'Bunter Alltag'],
];
