import { Hono } from 'hono';
import type { AppEnv } from '../../env';

export const profilePages = new Hono<AppEnv>();
