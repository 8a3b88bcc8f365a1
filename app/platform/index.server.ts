import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { createLocalPlatform } from './local/index.server'
import type { Platform } from './types'

/** The platform named by PLATFORM. Supabase's modules load only when chosen. */
export async function createPlatform(env: Env, db: Database): Promise<Platform> {
	if (env.PLATFORM === 'supabase') {
		const { createSupabasePlatform } = await import('./supabase/index.server')
		return createSupabasePlatform(env, db)
	}
	return createLocalPlatform(env, db)
}
