import { RealtimeClient } from '@supabase/realtime-js'
import WebSocket from 'ws'
const base = 'http://127.0.0.1:3602'
const { token } = await (await fetch(base + '/api/realtime/token')).json()
console.log('token', token.slice(0, 20))
const client = new RealtimeClient('ws://127.0.0.1:3602/realtime/v1', { transport: WebSocket, accessToken: async () => token, params: { apikey: 'local' } })
await client.setAuth()
const ch = client.channel('session_updates_de300000-0000-4000-8000-00000000a001', { config: { private: true } })
ch.on('broadcast', { event: 'update' }, (m) => console.log('update', m.payload.seq, m.payload.updatedKeys, m.payload.sessionData.dares.length))
ch.subscribe((s, e) => console.log('status', s, e?.message ?? ''))
const bad = client.channel('wallets_00000000-0000-4000-8000-000000000000', { config: { private: true } })
bad.subscribe((s, e) => console.log('wallet status', s, e?.message ?? ''))
setTimeout(() => process.exit(0), 4000)
