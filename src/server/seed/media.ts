import { DEMO_PICTURES, demoPictureKey } from '../../shared/store';
import { ART_PALETTE_COUNT, pictureArt } from '../features/images/art';

// The demo media objects the seed puts into the local R2 (MEDIA) besides the committed clips:
// gallery pictures, generated (deterministic SVG) for every palette, index and size.

export interface DemoObject {
  key: string;
  body: string;
  contentType: string;
}

export const DEMO_PICTURE_SIZES = { full: { width: 1200, height: 800 }, thumb: { width: 360, height: 240 } } as const;

export function demoPictureObjects(): DemoObject[] {
  const out: DemoObject[] = [];
  for (let palette = 0; palette < ART_PALETTE_COUNT; palette++) {
    for (let idx = 1; idx <= DEMO_PICTURES; idx++) {
      for (const size of ['full', 'thumb'] as const) {
        out.push({ key: demoPictureKey(palette, idx, size), body: pictureArt({ palette, idx, ...DEMO_PICTURE_SIZES[size] }), contentType: 'image/svg+xml' });
      }
    }
  }
  return out;
}
