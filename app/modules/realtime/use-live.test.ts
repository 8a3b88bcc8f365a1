import { expect, test } from 'vitest'
import { LOCAL_API_KEY, realtimeEndpoint } from './use-live'

test('local: the app’s own relay on the page’s origin, ws or wss as the page', () => {
	const local = { PLATFORM: 'local' as const, SUPABASE_URL: undefined, SUPABASE_ANON_KEY: undefined }
	expect(realtimeEndpoint(local, { protocol: 'http:', host: '127.0.0.1:3000' })).toEqual({ url: 'ws://127.0.0.1:3000/realtime/v1', apiKey: LOCAL_API_KEY })
	expect(realtimeEndpoint(local, { protocol: 'https:', host: 'dareboost.example' })).toEqual({ url: 'wss://dareboost.example/realtime/v1', apiKey: LOCAL_API_KEY })
})

test("supabase: the project's Realtime with its anon key", () => {
	const env = { PLATFORM: 'supabase' as const, SUPABASE_URL: 'https://abc.supabase.co/', SUPABASE_ANON_KEY: 'sb_publishable_x' }
	expect(realtimeEndpoint(env, { protocol: 'https:', host: 'dareboost.example' })).toEqual({ url: 'wss://abc.supabase.co/realtime/v1', apiKey: 'sb_publishable_x' })
})
