import type { Browser as PwBrowser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationMessages, Counts, SendAnswer } from '../../src/shared/messages';
import type { ShowDetail } from '../../src/shared/shows';
import { baseUrl, call, open } from './browser';
import { becomeOperator, newMember } from './members';
import { msg, performerStudio, person, roomsBrowser } from './rooms-helpers';

// The answering side of messages in Chromium (issue 14 point 5): a member writes to a show with a
// tip and the performer sees it arrive live in the studio inbox (pseudonym, tip, unread), opens it,
// answers, and sees the member's next message live in the open thread (en, desktop); a member
// writes to support and an operator (appointed, second factor set up in the page) answers from
// /operator/messages, the answer in the audit trail, with the member's next
// message arriving live (de, phone). The member side is driven through the API here (the member
// pages have their own suite); the member's unread count follows the answers.

const SHOW_ID = 240;
let browser: PwBrowser;
let show: ShowDetail;

beforeAll(async () => {
  browser = await roomsBrowser();
  // A show far down the catalogue (own provider), which the live-room suites leave alone.
  show = (await (await fetch(`${baseUrl()}/api/shows/${SHOW_ID}`)).json()) as ShowDetail;
  expect(show).toMatchObject({ id: SHOW_ID, contentproviderId: 1 });
});

afterAll(async () => {
  await browser?.close();
});

async function memberThread(member: Page, id: number | 'support'): Promise<ConversationMessages> {
  const res = await call<ConversationMessages>(member, 'GET', `conversations/${id}/messages`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('studio inbox', () => {
  it('the performer sees a member’s message with its tip arrive live, answers it, and sees the next message live (en, desktop)', async () => {
    const performer = await person(browser, 'en', 'desktop');
    await performerStudio(performer, show);
    const inbox = performer.locator('[data-testid=inbox][data-side=studio]');
    await inbox.waitFor();
    await expect.poll(() => inbox.locator('h2').textContent()).toBe(msg('en').inbox.title.studio);

    const member = await person(browser, 'en', 'desktop');
    await newMember(member, { coins: 100, ageChecked: true, nickname: true });
    const sent = await call<SendAnswer>(member, 'POST', 'conversations/show', { body: 'Hello from the e2e member', showid: show.id, pseudoid: 0, tip: 1, coins: 15 });
    expect(sent.status).toBe(200);
    expect(sent.body.user).toEqual({ coins: 85 });
    const cid = sent.body.conversation.id;

    // Live: no reload of the studio.
    const item = performer.locator(`[data-testid=inbox-item][data-id="${cid}"]`);
    await item.waitFor({ timeout: 10_000 });
    expect(await item.getAttribute('data-unread')).toBe('1');
    expect(await item.locator('[data-testid=inbox-item-pseudo]').textContent()).toBe(sent.body.conversation.memberpseudo);
    expect(await item.locator('[data-testid=inbox-item-tips]').textContent()).toContain('15');
    await expect.poll(async () => Number(await performer.locator('[data-testid=inbox-unread]').textContent())).toBeGreaterThanOrEqual(1);

    await item.click();
    const thread = performer.locator(`[data-testid=inbox-thread][data-id="${cid}"]`);
    await thread.waitFor();
    await thread.locator('[data-testid=inbox-message-tip][data-coins="15"]').waitFor();
    expect(await thread.locator('[data-testid=inbox-thread-pseudo]').textContent()).toBe(sent.body.conversation.memberpseudo);
    await expect.poll(() => item.getAttribute('data-unread')).toBe('0');

    await thread.locator('[data-testid=inbox-reply-input]').fill('Thank you for the tip!');
    await thread.locator('[data-testid=inbox-reply-send]').click();
    await thread.locator('[data-testid=inbox-message][data-author=show]', { hasText: 'Thank you for the tip!' }).waitFor();
    await expect.poll(() => thread.locator('[data-testid=inbox-reply-input]').inputValue()).toBe('');

    const answer = (await memberThread(member, cid)).messages.data.at(-1)!;
    expect(answer).toMatchObject({ author: 'show', body: 'Thank you for the tip!', unread: 1 });
    expect((await call<Counts>(member, 'GET', 'conversations/count')).body).toEqual({ all: 1, [cid]: 1 });

    // The member writes again: it appears in the open thread without a reload.
    expect((await call(member, 'POST', 'conversations/show', { body: 'See you tonight', showid: show.id, pseudoid: 0 })).status).toBe(200);
    await thread.locator('[data-testid=inbox-message][data-author=member]', { hasText: 'See you tonight' }).waitFor({ timeout: 10_000 });
    // The member's name and e-mail never reach the studio page.
    const html = await performer.content();
    const me = (await call<{ user: { name: string; email: string } }>(member, 'GET', 'auth/user')).body.user;
    expect(html).not.toContain(me.email);
    expect(html).not.toContain(`>${me.name}<`);
    await performer.context().close();
    await member.context().close();
  });
});

describe('operator inbox', () => {
  it('the operator answers a support thread from /operator/messages and sees the member’s next message live (de, phone)', async () => {
    const operator = await person(browser, 'de', 'phone');
    await becomeOperator(operator, await newMember(operator), '/operator/messages');
    const inbox = operator.locator('[data-testid=inbox][data-side=support]');
    await inbox.waitFor();
    await expect.poll(() => inbox.locator('h2').textContent()).toBe(msg('de').inbox.title.support);

    const member = await person(browser, 'de', 'phone');
    await newMember(member, { ageChecked: true });
    const sent = await call<SendAnswer>(member, 'POST', 'conversations/support', { body: 'Wie ändere ich meinen Nickname?' });
    expect(sent.status).toBe(200);
    const cid = sent.body.conversation.id;

    const item = operator.locator(`[data-testid=inbox-item][data-id="${cid}"]`);
    await item.waitFor({ timeout: 10_000 });
    expect(await item.getAttribute('data-unread')).toBe('1');
    await item.click();
    const thread = operator.locator(`[data-testid=inbox-thread][data-id="${cid}"]`);
    await thread.locator('[data-testid=inbox-message][data-author=member]', { hasText: 'Wie ändere ich meinen Nickname?' }).waitFor();
    await thread.locator('[data-testid=inbox-reply-input]').fill('Im Profil unter Nicknames.');
    await thread.locator('[data-testid=inbox-reply-send]').click();
    await thread.locator('[data-testid=inbox-message][data-author=support]', { hasText: 'Im Profil unter Nicknames.' }).waitFor();

    const answer = (await memberThread(member, 'support')).messages.data.at(-1)!;
    expect(answer).toMatchObject({ author: 'support', body: 'Im Profil unter Nicknames.', unread: 1 });

    expect((await call(member, 'POST', 'conversations/support', { body: 'Danke, gefunden!' })).status).toBe(200);
    await thread.locator('[data-testid=inbox-message][data-author=member]', { hasText: 'Danke, gefunden!' }).waitFor({ timeout: 10_000 });
    // The answer is in the audit trail, with who gave it.
    await open(operator, '/operator/audit');
    await operator.locator('[data-testid=audit-row][data-action="support.reply"]', { hasText: `conversation:${cid}` }).waitFor();
    expect(await operator.locator('h1').textContent()).toBe(msg('de').operator.audit.title);
    // A member who is no operator gets the notice, not the inbox.
    await open(member, '/operator/messages');
    await member.locator('[data-testid=operator-not-operator]').waitFor();
    expect(await member.locator('[data-testid=inbox]').count()).toBe(0);
    await operator.context().close();
    await member.context().close();
  });
});
