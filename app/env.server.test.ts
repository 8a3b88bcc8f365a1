import { expect, test } from 'vitest'
import { EnvError, parseEnv, publicEnv } from './env.server'
import { OPERATOR } from '#tests/support/env'

test('the embedded default needs no configuration', () => {
	const env = parseEnv({})
	expect(env.PLATFORM).toBe('local')
	expect(env.PORT).toBe(3000)
	expect(env.PGLITE_DATA_DIR).toBe('.data/pglite')
	expect(env.MIGRATE_ON_START).toBe(true)
	expect(env.DEMO_DATA).toBe(true)
	expect(env.APP_URL).toBe('http://localhost:3000')
})

test('a Postgres server turns demo data off unless asked for', () => {
	expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db' }).DEMO_DATA).toBe(false)
	expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db', DEMO_DATA: 'true' }).DEMO_DATA).toBe(true)
})

test('bad values are reported together, by name', () => {
	let error: unknown
	try {
		parseEnv({ PORT: 'eighty', PLATFORM: 'cloud', LOCALE_DOMAINS: 'example.fr=fr' })
	} catch (e) {
		error = e
	}
	expect(error).toBeInstanceOf(EnvError)
	const message = (error as Error).message
	expect(message).toMatch(/PORT/)
	expect(message).toMatch(/PLATFORM/)
	expect(message).toMatch(/LOCALE_DOMAINS/)
})

test('the supabase platform requires its settings', () => {
	expect(() => parseEnv({ PLATFORM: 'supabase' })).toThrow(/SUPABASE_URL.*\n.*SUPABASE_ANON_KEY.*\n.*DATABASE_URL/s)
})

test('LOCALE_DOMAINS maps hosts to locales', () => {
	expect(parseEnv({ LOCALE_DOMAINS: 'Beispiel.de=de, ejemplo.es=es' }).LOCALE_DOMAINS).toEqual({
		'beispiel.de': 'de',
		'ejemplo.es': 'es',
	})
})

test('empty variables count as unset', () => {
	expect(parseEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000)
})

test('only the allow-list reaches the browser', () => {
	const env = parseEnv({ SMTP_URL: 'smtp://user:secret@mail.example', DATABASE_URL: 'postgres://u:pw@h/db' })
	const json = JSON.stringify(publicEnv(env))
	expect(json).not.toContain('secret')
	expect(json).not.toContain('pw@')
	expect(Object.keys(publicEnv(env)).sort()).toEqual(
		['APP_URL', 'BUILD_CHECK_INTERVAL', 'DEMO_SITE', 'PLATFORM', 'SUPABASE_ANON_KEY', 'SUPABASE_URL'].sort(),
	)
})

test('the development mailbox is on by default only on a loopback origin served on loopback, without SMTP', () => {
	expect(parseEnv({}).DEV_MAILBOX).toBe(true)
	expect(parseEnv({ HOST: '127.0.0.1', APP_URL: 'http://127.0.0.1:3000' }).DEV_MAILBOX).toBe(true)
	expect(parseEnv({ APP_URL: 'https://dares.example', ...OPERATOR }).DEV_MAILBOX).toBe(false)
	expect(parseEnv({ SMTP_URL: 'smtp://127.0.0.1:2525' }).DEV_MAILBOX).toBe(false)
	expect(parseEnv({ APP_URL: 'https://dares.example', DEV_MAILBOX: 'true', NODE_ENV: 'development' }).DEV_MAILBOX).toBe(true)
})

test("the mailbox takeover: the container's defaults (HOST=0.0.0.0, no APP_URL) leave the mailbox off", () => {
	const container = parseEnv({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '3000', PGLITE_DATA_DIR: '/data/pglite' })
	expect(container.APP_URL).toBe('http://localhost:3000')
	expect(container.DEV_MAILBOX).toBe(false)
	expect(parseEnv({ HOST: '::' }).DEV_MAILBOX).toBe(false)
	expect(parseEnv({ HOST: '192.168.1.20' }).DEV_MAILBOX).toBe(false)
})

test('the mailbox takeover: production refuses to start with the mailbox on and a public APP_URL', () => {
	expect(() => parseEnv({ NODE_ENV: 'production', APP_URL: 'https://dares.example', DEV_MAILBOX: 'true', ...OPERATOR })).toThrow(/DEV_MAILBOX/)
	expect(() => parseEnv({ APP_URL: 'http://10.0.0.5:3000', DEV_MAILBOX: 'yes', ...OPERATOR })).toThrow(EnvError)
	expect(parseEnv({ NODE_ENV: 'production', APP_URL: 'http://localhost:3000', DEV_MAILBOX: 'true' }).DEV_MAILBOX).toBe(true)
})

test('the server listens on loopback unless told otherwise', () => {
	expect(parseEnv({}).HOST).toBe('127.0.0.1')
})

test('ALLOWED_HOSTS takes host and host:port names, nothing else', () => {
	expect(parseEnv({ ALLOWED_HOSTS: 'WWW.Dares.example, dares.example:8443,[::1]:3000' }).ALLOWED_HOSTS).toEqual([
		'www.dares.example',
		'dares.example:8443',
		'[::1]:3000',
	])
	expect(() => parseEnv({ ALLOWED_HOSTS: 'https://dares.example' })).toThrow(/ALLOWED_HOSTS/)
	expect(() => parseEnv({ ALLOWED_HOSTS: 'user@dares.example' })).toThrow(/ALLOWED_HOSTS/)
})

test('MAX_BODY_BYTES defaults to 1 MiB', () => {
	expect(parseEnv({}).MAX_BODY_BYTES).toBe(1024 * 1024)
	expect(parseEnv({ MAX_BODY_BYTES: '65536' }).MAX_BODY_BYTES).toBe(65536)
	expect(() => parseEnv({ MAX_BODY_BYTES: '10' })).toThrow(/MAX_BODY_BYTES/)
})

test('a public site in production refuses to start without the operator details, naming each variable', () => {
	let error: unknown
	try {
		parseEnv({ APP_URL: 'https://dares.example', OPERATOR_NAME: 'Dares Ltd' })
	} catch (e) {
		error = e
	}
	expect(error).toBeInstanceOf(EnvError)
	const message = (error as Error).message
	expect(message).toMatch(/OPERATOR_ADDRESS: required in production on a public APP_URL/)
	expect(message).toMatch(/OPERATOR_EMAIL: required/)
	expect(message).not.toMatch(/OPERATOR_NAME:/)
	expect(parseEnv({ APP_URL: 'https://dares.example', ...OPERATOR }).OPERATOR_NAME).toBe('Dares Ltd')
})

test('the embedded default, a loopback APP_URL and development start without operator details', () => {
	expect(() => parseEnv({})).not.toThrow()
	expect(() => parseEnv({ APP_URL: 'http://127.0.0.1:3171' })).not.toThrow()
	expect(() => parseEnv({ APP_URL: 'http://[::1]:3000' })).not.toThrow()
	expect(() => parseEnv({ NODE_ENV: 'development', APP_URL: 'https://dares.example' })).not.toThrow()
})

test('the build check interval defaults to five minutes and can be switched off', () => {
	expect(parseEnv({}).BUILD_CHECK_INTERVAL).toBe(300)
	expect(parseEnv({ BUILD_CHECK_INTERVAL: '0' }).BUILD_CHECK_INTERVAL).toBe(0)
	expect(() => parseEnv({ BUILD_CHECK_INTERVAL: '-5' })).toThrow(/BUILD_CHECK_INTERVAL/)
})

test('cookie consent and analytics settings: defaults and bounds', () => {
	const env = parseEnv({})
	expect(env.CONSENT_MAX_AGE_DAYS).toBe(182)
	expect(env.CONSENT_FORCE_MODAL).toBe(false)
	expect(env.POSTHOG_KEY).toBeUndefined()
	expect(env.POSTHOG_HOST).toBe('https://eu.i.posthog.com')
	expect(parseEnv({ CONSENT_FORCE_MODAL: 'true' }).CONSENT_FORCE_MODAL).toBe(true)
	expect(() => parseEnv({ CONSENT_MAX_AGE_DAYS: '0' })).toThrow(/CONSENT_MAX_AGE_DAYS/)
	expect(() => parseEnv({ CONSENT_MAX_AGE_DAYS: '400' })).toThrow(/CONSENT_MAX_AGE_DAYS/)
	expect(() => parseEnv({ POSTHOG_KEY: 'phc key with spaces' })).toThrow(/POSTHOG_KEY/)
	expect(() => parseEnv({ POSTHOG_HOST: 'ftp://posthog.example' })).toThrow(/POSTHOG_HOST/)
})

// The free-coins finding: the README's single-instance container (production,
// a public APP_URL, no DATABASE_URL) used to load the demo sign-ins and the
// test checkout, so anyone could sign in as a demo user and buy coins for
// nothing that creators are then paid from.
test('free coins and demo sign-ins: off by default on a public APP_URL, on for this machine', () => {
	const container = parseEnv({ NODE_ENV: 'production', HOST: '0.0.0.0', APP_URL: 'https://dares.example', PGLITE_DATA_DIR: '/data/pglite', ...OPERATOR })
	expect(container.DEMO_DATA).toBe(false)
	expect(container.TEST_CHECKOUT).toBe(false)
	expect(publicEnv(container).DEMO_SITE).toBe(false)
	const local = parseEnv({ APP_URL: 'http://127.0.0.1:3000' })
	expect(local.DEMO_DATA).toBe(true)
	expect(local.TEST_CHECKOUT).toBe(true)
})

test('free coins and demo sign-ins: asked for on a public APP_URL, the server refuses to start, naming the variable', () => {
	const publicSite = { NODE_ENV: 'production', APP_URL: 'https://dares.example', ...OPERATOR }
	expect(() => parseEnv({ ...publicSite, DEMO_DATA: 'true' })).toThrow(/DEMO_DATA: must not be on with a public APP_URL/)
	expect(() => parseEnv({ ...publicSite, TEST_CHECKOUT: 'true' })).toThrow(/TEST_CHECKOUT: must not be on with a public APP_URL/)
	expect(() => parseEnv({ NODE_ENV: 'development', APP_URL: 'http://192.168.1.20:3000', DATABASE_URL: 'postgres://u@h/db', DEMO_DATA: 'true' })).toThrow(/DEMO_DATA/)
	expect(() => parseEnv({ APP_URL: 'http://localhost:3000', DATABASE_URL: 'postgres://u@h/db', DEMO_DATA: 'true', TEST_CHECKOUT: 'true' })).not.toThrow()
})

test('a declared demo site may run both on a public APP_URL, says so on every page, and takes no real payments', () => {
	const demo = parseEnv({ NODE_ENV: 'production', APP_URL: 'https://demo.dares.example', DEMO_SITE: 'true', ...OPERATOR })
	expect(demo.DEMO_DATA).toBe(true)
	expect(demo.TEST_CHECKOUT).toBe(true)
	expect(publicEnv(demo).DEMO_SITE).toBe(true)
	expect(() =>
		parseEnv({ APP_URL: 'https://demo.dares.example', DEMO_SITE: 'true', STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', ...OPERATOR }),
	).toThrow(/DEMO_SITE: a demonstration site takes no real payments/)
})
