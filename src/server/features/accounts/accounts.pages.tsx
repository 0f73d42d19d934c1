import { Hono } from 'hono';
import type { AppEnv } from '../../env';

export const accountsPages = new Hono<AppEnv>();
