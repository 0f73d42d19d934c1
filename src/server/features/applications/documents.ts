import { DOCUMENT_MAX_BYTES } from '../../../shared/applications';

// The two files of an application: present, at most DOCUMENT_MAX_BYTES, and a JPEG, PNG or PDF by
// their first bytes (the declared type and name are the sender's word and are not used).

export interface CheckedFile {
  bytes: Uint8Array;
  type: 'image/jpeg' | 'image/png' | 'application/pdf';
}

const SIGNATURES: { type: CheckedFile['type']; magic: number[] }[] = [
  { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
];

export function sniff(bytes: Uint8Array): CheckedFile['type'] | null {
  return SIGNATURES.find((s) => s.magic.every((b, i) => bytes[i] === b))?.type ?? null;
}

/** The file of a form field, or the field's error code. */
export async function checkFile(value: FormDataEntryValue | null): Promise<CheckedFile | string> {
  if (value === null || typeof value === 'string' || value.size === 0) return 'file_required';
  if (value.size > DOCUMENT_MAX_BYTES) return 'file_too_large';
  const bytes = new Uint8Array(await value.arrayBuffer());
  const type = sniff(bytes);
  return type ? { bytes, type } : 'file_type';
}
