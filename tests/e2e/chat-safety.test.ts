import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShowDetail } from '../../src/shared/shows';
import { open } from './browser';
import { newMember, type Lang } from './members';
import { msg, overlay, performerStudio, person, roomsBrowser, showsByIds, startChat, type Device } from './rooms-helpers';

// Chat safety (issue 30 point 4; shows 121-130), en on a desktop and de on a phone: the performer
// lists a blocked word and appoints a regular as moderator in the studio; the moderator mutes a
// member from the chat, whose next line is refused with the time the mute ends; a line with the
// blocked word is held back (its sender is told, the others never see it).

let browser: PwBrowser;
let shows: ShowDetail[];

beforeAll(async () => {
  browser = await roomsBrowser();
  shows = await showsByIds(121, 130, (s) => s.contentproviderId === 1 && s.freemode);
});

afterAll(async () => {
  await browser?.close();
});

const CASES: [Lang, Device, number][] = [
  ['en', 'desktop', 0],
  ['de', 'phone', 1],
];

/** Joins the show's free chat as a fresh member with a nickname; answers the nickname. */
async function memberInChat(page: Page, show: ShowDetail): Promise<string> {
  const m = await newMember(page, { nickname: true });
  await startChat(page, show, 'free');
  await overlay(page).and(page.locator('[data-state=running][data-connected="1"]')).waitFor();
  return m.nick!;
}

async function say(page: Page, text: string): Promise<void> {
  await page.fill('[data-testid=chat-input]', text);
  await page.press('[data-testid=chat-input]', 'Enter');
}

const notice = (page: Page, text: string) => page.locator('[data-testid=chat-lines] .chat-line.notice', { hasText: text });
const lineOf = (page: Page, text: string) => page.locator('[data-testid=chat-lines] [data-testid=chat-line] .chat-text', { hasText: text });

describe.each(CASES)('chat safety (%s, %s)', (lang, device, index) => {
  it('a moderator appointed among the regulars mutes a member; a blocked word is held back', async () => {
    const m = msg(lang).chat.safety;
    const ms = msg(lang).studio.chatSafety;
    const show = shows[index];
    expect(show, 'a free-chat show in 121-130').toBeDefined();
    const [studio, mod, member, sender] = await Promise.all([person(browser, lang, device), person(browser, lang, device), person(browser, lang, device), person(browser, lang, device)]);
    await performerStudio(studio, show, { online: true });

    // A regular: a member who has chatted in the show. The studio lists them after a reload.
    const modNick = await memberInChat(mod, show);
    await say(mod, `hello from the regular ${lang}`);
    await studio.locator('[data-testid=studio-lines] .chat-text', { hasText: `hello from the regular ${lang}` }).waitFor();
    await open(studio, '/studio');
    await studio.locator('[data-testid=studio][data-connected="1"]').waitFor();
    const card = studio.locator('[data-testid=studio-chat-safety]');
    const blocked = `zonk${lang}`;
    await card.locator('[data-testid=studio-words]').fill(`${blocked.toUpperCase()}\nanother phrase`);
    await card.locator('[data-testid=studio-words-form] button[type=submit]').click();
    await card.locator('[data-testid=studio-words-saved]').waitFor();
    await expect(card.locator('[data-testid=studio-words]').inputValue()).resolves.toBe(`another phrase\n${blocked}`);
    const regular = card.locator(`[data-regular="${modNick}"]`);
    await regular.getByRole('button', { name: ms.appoint }).click();
    await regular.getByText(ms.isModerator, { exact: true }).waitFor();
    // The moderator is told in their chat at once.
    await notice(mod, m.appointed).waitFor();

    // A member chats; the moderator mutes them for 15 minutes from the member's line.
    const memberNick = await memberInChat(member, show);
    await say(member, `first line ${lang}`);
    const line = mod.locator('[data-testid=chat-line]', { hasText: `first line ${lang}` });
    await line.waitFor();
    await line.locator('[data-testid=chat-mod-toggle]').click();
    await line.locator('[data-mute="15"]').click();
    await notice(mod, m.done.mute.replace('{{nick}}', memberNick).replace('{{minutes}}', '15')).waitFor();
    // The member is told until when, and their next line is refused with the same reason.
    const mutedText = m.mutedUntil.split('{{time}}')[0];
    await notice(member, mutedText).first().waitFor();
    await say(member, `second line ${lang}`);
    await expect.poll(() => notice(member, mutedText).count()).toBe(2);
    await expect(lineOf(member, `second line ${lang}`).count()).resolves.toBe(0);

    // A line with the blocked word is held back: its sender is told; the next clean line reaches
    // the others, and the held one never came before it.
    await memberInChat(sender, show);
    await say(sender, `what a ${blocked.toUpperCase()}!`);
    await notice(sender, m.heldBack).waitFor();
    await say(sender, `a clean line ${lang}`);
    for (const p of [member, mod]) {
      await lineOf(p, `a clean line ${lang}`).waitFor();
      await expect(lineOf(p, `what a ${blocked.toUpperCase()}`).count()).resolves.toBe(0);
    }
    await studio.locator('[data-testid=studio-lines] .chat-text', { hasText: `a clean line ${lang}` }).waitFor();
    await expect(studio.locator('[data-testid=studio-lines] .chat-text', { hasText: `what a ${blocked.toUpperCase()}` }).count()).resolves.toBe(0);
    await expect(lineOf(member, `second line ${lang}`).count()).resolves.toBe(0);
    await expect(studio.locator('[data-testid=studio-lines] .chat-text', { hasText: `second line ${lang}` }).count()).resolves.toBe(0);

    for (const p of [studio, mod, member, sender]) await p.context().close();
  }, 150_000);
});
