import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, test } from 'vitest'
import { MemoryRateLimiter } from '#app/modules/account/memory-rate-limit.server'
import { renderReportReceipt, reportReference } from '#app/modules/moderation/report-mail.server'
import { LOCALE_CODES } from '#app/i18n/locales'
import { invalidModeration, VISITOR_REPORTS, visitorReportAllowed } from './moderation.server'
import { ModerationActionSchema } from './schemas'

const DARE = 'de300000-0000-4000-8000-0000000d0007'

function form(fields: Record<string, string>) {
	const data = new FormData()
	for (const [name, value] of Object.entries(fields)) data.set(name, value)
	return data
}

/** What the action answers a form with: the parsed action, or the error code it refuses with. */
function parsed(fields: Record<string, string>) {
	const data = form(fields)
	const submission = parseWithZod(data, { schema: ModerationActionSchema })
	return submission.status === 'success' ? submission.value : invalidModeration(data, submission.error ?? {})
}

describe('the moderation forms, as the action reads them', () => {
	const report = { intent: 'report', dareId: DARE, reason: 'hate', details: '  Targets a viewer by name.  ', goodFaith: 'yes' }

	test('a report: its reason, trimmed details and good-faith statement; a visitor’s name and address', () => {
		expect(parsed(report)).toEqual({ intent: 'report', dareId: DARE, reason: 'hate', details: 'Targets a viewer by name.', goodFaith: 'yes' })
		expect(parsed({ ...report, name: 'Ada', email: 'ada@example.com' })).toMatchObject({ name: 'Ada', email: 'ada@example.com' })
	})

	test('a report the browser should have refused gets the error of its first wrong field', () => {
		expect(parsed({ ...report, reason: 'boring' })).toBe('error-invalid-report-reason')
		expect(parsed({ ...report, reason: '' })).toBe('error-invalid-report-reason')
		expect(parsed({ ...report, details: '   ' })).toBe('error-report-details-required')
		expect(parsed({ ...report, details: 'x'.repeat(1001) })).toBe('error-report-details-too-long')
		expect(parsed({ ...report, goodFaith: '' })).toBe('error-report-good-faith-required')
		expect(parsed({ ...report, goodFaith: 'no' })).toBe('error-report-good-faith-required')
		expect(parsed({ ...report, name: 'x'.repeat(101) })).toBe('error-report-name-required')
		expect(parsed({ ...report, email: 'not-an-address' })).toBe('error-invalid-email')
		expect(parsed({ ...report, dareId: 'not-a-dare' })).toBe('error-dare-not-found')
	})

	test('the creator’s forms', () => {
		expect(parsed({ intent: 'approve', dareId: DARE })).toEqual({ intent: 'approve', dareId: DARE })
		expect(parsed({ intent: 'hide', dareId: 'x' })).toBe('error-dare-not-found')
		expect(parsed({ intent: 'ban', userId: DARE })).toEqual({ intent: 'ban', userId: DARE })
		expect(parsed({ intent: 'ban', userId: 'someone' })).toBe('error-ban-unknown-user')
		expect(parsed({ intent: 'hold', sessionId: DARE, hold: 'on' })).toEqual({ intent: 'hold', sessionId: DARE, hold: 'on' })
		expect(parsed({ intent: 'hold', sessionId: DARE, hold: 'maybe' })).toBe('error-invalid-setting')
		expect(parsed({ intent: 'hold', sessionId: 'x', hold: 'on' })).toBe('error-live-session-not-found')
	})
})

describe('a visitor’s reports per address', () => {
	const from = (ip: string) => new Request('http://app.test/en/session/x', { method: 'POST', headers: { 'x-forwarded-for': ip } })

	test(`${VISITOR_REPORTS.max} in ${VISITOR_REPORTS.windowSeconds / 60} minutes from one address, then the wait; other addresses go on`, () => {
		let now = 0
		const limiter = new MemoryRateLimiter({ now: () => now })
		for (let i = 0; i < VISITOR_REPORTS.max; i++) expect(visitorReportAllowed(from('203.0.113.7'), 1, limiter)).toEqual({ allowed: true })
		expect(visitorReportAllowed(from('203.0.113.7'), 1, limiter)).toEqual({ allowed: false, retryAfterSeconds: VISITOR_REPORTS.windowSeconds })
		expect(visitorReportAllowed(from('203.0.113.8'), 1, limiter)).toEqual({ allowed: true })
		now += VISITOR_REPORTS.windowSeconds * 1000
		expect(visitorReportAllowed(from('203.0.113.7'), 1, limiter)).toEqual({ allowed: true })
	})

	test('without a trusted proxy the address is unknown and nothing is counted (as the account limits)', () => {
		const limiter = new MemoryRateLimiter()
		for (let i = 0; i < VISITOR_REPORTS.max * 2; i++) expect(visitorReportAllowed(from('203.0.113.7'), 0, limiter)).toEqual({ allowed: true })
	})
})

describe('the report receipt', () => {
	test('a short reference from the report id', () => {
		expect(reportReference('9f1c2b3a-0000-4000-8000-000000000001')).toBe('9F1C2B3A')
	})

	test.each(LOCALE_CODES)('%s: the reference in the subject, the reason in words, text and HTML', (locale) => {
		const mail = renderReportReceipt(locale, { reference: '9F1C2B3A', reason: 'violence' })
		expect(mail.subject).toContain('9F1C2B3A')
		expect(mail.text).toContain('9F1C2B3A')
		expect(mail.html).toContain(`<html lang="${locale}">`)
		expect(mail.html).toContain('<strong>9F1C2B3A</strong>')
		const reason = { en: 'Violence or danger', de: 'Gewalt oder Gefahr', es: 'Violencia o peligro', tr: 'Şiddet veya tehlike' }[locale]
		expect(mail.text).toContain(reason)
		expect(mail.html).toContain(reason)
	})
})
