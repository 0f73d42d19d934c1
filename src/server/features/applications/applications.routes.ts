import { Hono } from 'hono';
import { applicationFieldsSchema, DOCUMENT_MAX_BYTES, type MyApplication } from '../../../shared/applications';
import type { AppEnv } from '../../env';
import { readCappedBody } from '../../lib/body';
import { ApiError, type FieldErrors } from '../../lib/errors';
import { fieldErrors } from '../../lib/validation';
import { requireVerified } from '../session/session.service';
import { myApplication, submitApplication } from './applications.service';
import { checkFile, type CheckedFile } from './documents';

/** Two files and a few short fields (the body guard leaves this route's multipart body to it). */
export const APPLICATION_BODY_MAX = 2 * DOCUMENT_MAX_BYTES + 64 * 1024;

async function readForm(req: Request): Promise<FormData> {
  if ((req.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase() !== 'multipart/form-data') throw new ApiError(422, 'invalid_body');
  const body = await readCappedBody(req, APPLICATION_BODY_MAX);
  try {
    return await new Request('http://form/', { method: 'POST', headers: { 'Content-Type': req.headers.get('Content-Type') ?? '' }, body }).formData();
  } catch {
    throw new ApiError(422, 'invalid_body');
  }
}

/**
 * /api/applications: a verified member applies to perform (issue 29 point 1) with the fields and
 * two files (an ID document and a selfie). Every bad field is named (422) before anything is
 * written; the files go to the private bucket only after that.
 */
export const applicationsRoutes = new Hono<AppEnv>()
  .post('/', requireVerified, async (c) => {
    c.header('Cache-Control', 'no-store');
    const form = await readForm(c.req.raw);
    const text = (name: string) => {
      const v = form.get(name);
      return typeof v === 'string' ? v : undefined;
    };
    const parsed = applicationFieldsSchema.safeParse({
      legal_name: text('legal_name'),
      date_of_birth: text('date_of_birth'),
      country: text('country'),
      stage_name: text('stage_name'),
      consent: text('consent'),
      join_show: text('join_show'),
    });
    const errors: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error);
    const idDoc = await checkFile(form.get('id_document'));
    const selfie = await checkFile(form.get('selfie'));
    if (typeof idDoc === 'string') errors.id_document = [idDoc];
    if (typeof selfie === 'string') errors.selfie = [selfie];
    if (!parsed.success || Object.keys(errors).length > 0) throw new ApiError(422, 'validation_failed', errors);
    const user = c.get('user')!;
    const id = await submitApplication(c.env, user.id, user.performer_show !== null, parsed.data, { id: idDoc as CheckedFile, selfie: selfie as CheckedFile });
    return c.json({ application: await myApplication(c.env.DB, user.id), id }, 201);
  })
  .get('/mine', requireVerified, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json<{ application: MyApplication | null }>({ application: await myApplication(c.env.DB, c.get('user')!.id) });
  });
