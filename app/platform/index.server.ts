import type { Database } from '#app/db/database.server'
import type { Env } from '#app/env.server'
import { createLocalPlatform } from './local/index.server'
import { createSupabasePlatform } from './supabase/index.server'
import type { Platform } from './types'

export function createPlatform(env: Env, db: Database): Platform {
	return env.PLATFORM === 'supabase' ? createSupabasePlatform(env) : createLocalPlatform(env, db)
}
