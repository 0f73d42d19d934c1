import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { type Member, registerMember } from './account-helpers';
import { addCoins } from './chat-helpers';

// The store's tests (issue 13): demo objects in the MEDIA bucket, videos and galleries picked
// from the seeded catalogue, members with coins.

/** The bytes of a test object: its key repeated, so every offset has a known byte. */
export function objectBytes(key: string, size: number): Uint8Array {
  const out = new Uint8Array(size);
  const text = new TextEncoder().encode(`${key}|`);
  for (let i = 0; i < size; i++) out[i] = text[i % text.length];
  return out;
}

export const PART_SIZE = 1000;
export const PICTURE_SIZE = 300;

/** Puts the part and preview objects of a video into the bucket (PART_SIZE bytes each). */
export async function putVideoMedia(videoId: number): Promise<void> {
  const { results } = await env.DB.prepare('SELECT media_key, preview_key FROM video_parts WHERE video_id = ?').bind(videoId).all<{ media_key: string; preview_key: string }>();
  expect(results.length).toBeGreaterThan(0);
  for (const r of results) {
    for (const key of [r.media_key, r.preview_key]) await env.MEDIA.put(key, objectBytes(key, PART_SIZE));
  }
}

/** Puts a gallery's pictures (both sizes) into the bucket. */
export async function putGalleryMedia(galleryId: number): Promise<void> {
  const { results } = await env.DB.prepare('SELECT full_key, thumb_key FROM gallery_pictures WHERE gallery_id = ?').bind(galleryId).all<{ full_key: string; thumb_key: string }>();
  expect(results.length).toBeGreaterThan(0);
  for (const r of results) {
    for (const key of [r.full_key, r.thumb_key]) await env.MEDIA.put(key, objectBytes(key, PICTURE_SIZE));
  }
}

export interface VideoPick {
  id: number;
  ccid: string;
  show_id: number;
  price: number;
  parts: number;
}

/** Paid videos (price > 0) in id order, skipping `skip` of them. */
export async function paidVideos(n: number, skip = 0): Promise<VideoPick[]> {
  const { results } = await env.DB.prepare('SELECT id, ccid, show_id, price, parts FROM videos WHERE price > 0 ORDER BY id LIMIT ? OFFSET ?').bind(n, skip).all<VideoPick>();
  expect(results).toHaveLength(n);
  return results;
}

export async function freeVideo(): Promise<VideoPick> {
  return (await env.DB.prepare('SELECT id, ccid, show_id, price, parts FROM videos WHERE price = 0 ORDER BY id LIMIT 1').first<VideoPick>())!;
}

export interface GalleryPick {
  id: number;
  show_id: number;
  price: number;
  picture_count: number;
}

export async function paidGalleries(n: number, skip = 0): Promise<GalleryPick[]> {
  const { results } = await env.DB.prepare('SELECT id, show_id, price, picture_count FROM galleries WHERE price > 0 ORDER BY id LIMIT ? OFFSET ?').bind(n, skip).all<GalleryPick>();
  expect(results).toHaveLength(n);
  return results;
}

/** A verified member with `coins` coins (logged in on its client). */
export async function buyer(coins = 1000, verified = true): Promise<Member> {
  const m = await registerMember({ verified });
  if (coins > 0) await addCoins(m.id, coins);
  return m;
}

export async function purchaseCount(userId: number, kind?: 'video' | 'gallery', itemId?: number): Promise<number> {
  const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM purchases WHERE user_id = ?1 AND (?2 IS NULL OR kind = ?2) AND (?3 IS NULL OR item_id = ?3)')
    .bind(userId, kind ?? null, itemId ?? null)
    .first<{ n: number }>();
  return row!.n;
}

export async function purchaseDebits(userId: number): Promise<{ amount: number; ref: string; counter: string }[]> {
  return (await env.DB.prepare("SELECT amount, ref, counter FROM ledger WHERE user_id = ? AND reason = 'purchase' ORDER BY id").bind(userId).all<{ amount: number; ref: string; counter: string }>())
    .results;
}
