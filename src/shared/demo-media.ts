// Byte sizes of the committed demo clips (media/demo/clips/), written by the clip generator so
// the seed can fill video_parts.size. Index = clip number (0..DEMO_CLIP_COUNT-1).
export const DEMO_CLIP_BYTES: readonly number[] = [1, 1, 1, 1, 1, 1];
export const DEMO_PREVIEW_BYTES: readonly number[] = [1, 1, 1, 1, 1, 1];
