import { randomUUID } from 'node:crypto'
import { describe, expect, test, vi } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { LOCALE_CODES } from '#app/i18n/locales'
import type { Mail, MailAdapter } from '#app/platform/types'
import { claimsFor, describeEachDatabase } from '#tests/support/databases'
import { liveSession, participant } from '#tests/support/dares'
import {
	appealLink,
	renderAppealOutcome,
	renderPayoutRejection,
	renderReportOutcome,
	renderStatementOfReasons,
	sendDecisionMails,
	type DecisionRecord,
	type ModerateResult,
} from './decision-mail.server'

const APP = 'https://dareboost.example'

const removal: DecisionRecord = {
	id: '0b6f3d2e-2a4f-4c1e-9d5a-6e7f8a9b0c1d',
	action: 'remove_dare',
	ground: 'harassment',
	explanation: 'The dare names a viewer & calls them <stupid>.',
	dareDescription: 'Tell @lena she is "useless"',
	automatedDetection: false,
	createdAt: new Date('2026-12-03T10:00:00Z'),
	reported: true,
	appealed: null,
}

/** Each language's way of citing section 6 of the terms (content/legal/terms.*.md). */
const SECTION_6 = { en: 'Section 6 of our terms', de: 'Abschnitt 6 unserer Nutzungsbedingungen', es: 'Sección 6 de nuestras condiciones', tr: 'Kullanım koşullarımızın 6. bölümü' }

describe('the statement of reasons', () => {
	test.each(LOCALE_CODES)('%s: what, the dare, why, the rule, automated means, the appeal link, other ways; escaped in HTML', (locale) => {
		const mail = renderStatementOfReasons(removal, locale, APP)
		const link = `${APP}/${locale}/appeal/${removal.id}`
		expect(appealLink(`${APP}/`, locale, removal.id)).toBe(link)
		for (const part of [removal.dareDescription!, removal.explanation, link, `${APP}/${locale}/terms`, SECTION_6[locale], '21', '2026']) {
			expect(mail.text, part).toContain(part)
		}
		expect(mail.html).toContain(`href="${link}"`)
		expect(mail.html).toContain('&lt;stupid&gt;')
		expect(mail.html).not.toContain('<stupid>')
		expect(mail.html).toContain(`<html lang="${locale}">`)
	})

	test('says whether automated means found the content, and that a person decided', () => {
		const held = renderStatementOfReasons({ ...removal, automatedDetection: true, reported: false }, 'en', APP).text
		expect(held).toContain('Our automatic filter held this dare for review (automated detection, section 7 of our terms)')
		expect(held).toContain('taken by a person')
		expect(renderStatementOfReasons(removal, 'en', APP).text).toContain('Someone reported this to us')
		expect(renderStatementOfReasons({ ...removal, reported: false }, 'de', APP).text).toContain('Unsere Moderation ist selbst darauf gestoßen')
	})

	test('a suspension and a payout restriction say what they mean; a decision without a measure has no statement', () => {
		expect(renderStatementOfReasons({ ...removal, action: 'suspend_user' }, 'en', APP).text).toContain('you can no longer write dares, boost, vote or run sessions')
		expect(renderStatementOfReasons({ ...removal, action: 'restrict_payouts' }, 'tr', APP).subject).toBe('Ödemelerini kısıtladık')
		expect(() => renderStatementOfReasons({ ...removal, action: 'dismiss_report', ground: 'none' }, 'en', APP)).toThrow()
	})
})

describe('the statement of reasons of a rejected payout (docs/product.md §14)', () => {
	const rejection: DecisionRecord = {
		...removal,
		action: 'reject_payout',
		ground: 'spam',
		explanation: 'The coins came from accounts made to boost your own dares.',
		dareDescription: null,
		reported: false,
		payout: { coins: 25_000, amountMinor: 17_500, currency: 'EUR', requestedAt: new Date('2026-12-01T09:00:00Z') },
	}

	test.each(LOCALE_CODES)('%s: which payout, its coins back, why, the rule, a person decided, other ways', (locale) => {
		const mail = renderPayoutRejection(rejection, locale, APP)
		const coins = { en: '25,000', de: '25.000', es: '25.000', tr: '25.000' }[locale]
		for (const part of [coins, '175', rejection.explanation, `${APP}/${locale}/terms`, SECTION_6[locale], '21', '2026']) {
			expect(mail.text, part).toContain(part)
		}
		expect(mail.html).toContain(`<html lang="${locale}">`)
	})

	test('is no other decision’s, and needs its payout', () => {
		expect(renderPayoutRejection(rejection, 'en', APP).subject).toBe('We did not send your payout')
		expect(() => renderPayoutRejection({ ...rejection, payout: null }, 'en', APP)).toThrow()
		expect(() => renderPayoutRejection(removal, 'en', APP)).toThrow()
		expect(() => renderStatementOfReasons(rejection, 'en', APP)).toThrow()
	})
})

describe('the outcome mails', () => {
	const appealed = { action: 'suspend_user' as const, createdAt: new Date('2026-12-01T09:00:00Z') }

	test.each(LOCALE_CODES)('%s: an appeal granted, upheld; a report actioned, dismissed', (locale) => {
		const granted = renderAppealOutcome({ ...removal, action: 'appeal_granted', ground: 'none', explanation: 'It was a quote.', appealed }, locale, APP)
		const upheld = renderAppealOutcome({ ...removal, action: 'appeal_upheld', explanation: 'It stays an insult.', appealed }, locale, APP)
		expect(granted.text).toContain('It was a quote.')
		expect(upheld.text).toContain('It stays an insult.')
		expect(upheld.text).toContain(SECTION_6[locale])
		expect(granted.subject).not.toBe(upheld.subject)
		for (const mail of [granted, upheld]) expect(mail.text).toContain('21')

		const actioned = renderReportOutcome(removal, locale, APP)
		expect(actioned.text).toContain(removal.dareDescription!)
		expect(actioned.text).not.toContain(removal.explanation)
		const dismissed = renderReportOutcome({ ...removal, action: 'dismiss_report', ground: 'none', explanation: 'A joke among friends.' }, locale, APP)
		expect(dismissed.text).toContain('A joke among friends.')
		expect(dismissed.text).toContain('21')
	})

	test('a granted appeal against a suspension says it is lifted', () => {
		const mail = renderAppealOutcome({ ...removal, action: 'appeal_granted', ground: 'none', appealed }, 'en', APP)
		expect(mail.text).toContain('Your account is no longer suspended')
		expect(mail.text).toContain('December 1, 2026')
	})
})

async function as<T>(db: Database, user: string, fn: (tx: Queryable) => Promise<T>) {
	return asUser(db, claimsFor(user), fn)
}

function mailbox(fail = false): MailAdapter & { sent: Mail[] } {
	const sent: Mail[] = []
	return {
		transport: 'dev-mailbox',
		sent,
		async send(mail) {
			if (fail) throw new Error('SMTP is down')
			sent.push(mail)
		},
	}
}

describeEachDatabase('a decision’s mails', (getDb) => {
	async function reportedDare(db: Database) {
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		const session = await liveSession(db)
		const author = await participant(db)
		const reporters = [await participant(db), await participant(db)]
		const dare = await as(db, author, async (tx) => (await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3, $4)', ['Shout at your neighbour', session.id, randomUUID(), 'en'])).rows[0]!)
		const reports: string[] = []
		for (const [i, reporter] of reporters.entries()) {
			const language = i === 0 ? 'de' : 'es'
			reports.push(
				await as(db, reporter, async (tx) => (await tx.query<{ report_id: string }>(`select report_id from public.report_dare($1, 'harassment', 'Rude.', true, $2)`, [dare.id, language])).rows[0]!.report_id),
			)
		}
		const operator = await participant(db)
		await db.query('insert into app_private.operators (user_id) values ($1)', [operator])
		const emailOf = async (id: string) => (await db.query<{ email: string }>('select email from auth.users where id = $1', [id])).rows[0]!.email
		const moderate = (action: string, target: string, ground: string, explanation: string) =>
			as(db, operator, async (tx) => (await tx.query<ModerateResult>('select * from public.moderate($1, $2, $3, $4)', [action, target, ground, explanation])).rows[0]!)
		return { author, reporters, reports, dare, moderate, emailOf }
	}

	test('a removal: the statement of reasons to the author, the outcome to everyone whose report it closed, each in their language', async () => {
		const db = getDb()
		const { author, reporters, reports, moderate, emailOf } = await reportedDare(db)
		const result = await moderate('remove_dare', reports[0]!, 'harassment', 'It shouts at a stranger.')
		const mail = mailbox()
		await sendDecisionMails({ db, mail, appUrl: APP }, result)
		const to = async (id: string) => {
			const email = await emailOf(id)
			return mail.sent.filter((m) => m.to === email)
		}
		const [statement] = await to(author)
		expect(statement).toMatchObject({ kind: 'statement-of-reasons', subject: 'We removed your dare' })
		expect(statement!.text).toContain(`${APP}/en/appeal/${result.decision_id}`)
		expect(statement!.text).toContain('Shout at your neighbour')
		expect((await to(reporters[0]!)).map((m) => [m.kind, m.subject])).toEqual([['report-outcome', 'Das Ergebnis deiner Meldung']])
		expect((await to(reporters[1]!)).map((m) => [m.kind, m.subject])).toEqual([['report-outcome', 'El resultado de tu denuncia']])
		expect(mail.sent).toHaveLength(3)
	})

	test('a dismissal tells the reporter only; an appeal decision tells the appellant; a failing mail is logged and nothing else', async () => {
		const db = getDb()
		const { author, reporters, reports, moderate, emailOf } = await reportedDare(db)
		const mail = mailbox()
		await sendDecisionMails({ db, mail, appUrl: APP }, await moderate('dismiss_report', reports[1]!, 'none', 'A figure of speech.'))
		expect(mail.sent.map((m) => [m.to, m.kind])).toEqual([[await emailOf(reporters[1]!), 'report-outcome']])
		expect(mail.sent[0]!.text).toContain('A figure of speech.')

		const suspension = await moderate('suspend_user', reports[0]!, 'harassment', 'Repeated insults.')
		await as(db, author, (tx) => tx.query('select public.appeal_decision($1, $2)', [suspension.decision_id, 'I apologised.']))
		const granted = mailbox()
		await sendDecisionMails({ db, mail: granted, appUrl: APP }, await moderate('appeal_granted', suspension.decision_id, 'none', 'The apology counts.'))
		expect(granted.sent.map((m) => [m.to, m.kind])).toEqual([[await emailOf(author), 'appeal-outcome']])
		expect(granted.sent[0]!.text).toContain('Your account is no longer suspended')

		const log = vi.fn()
		const result = await moderate('restrict_payouts', author, 'spam', 'Advertising.')
		await expect(sendDecisionMails({ db, mail: mailbox(true), appUrl: APP, log }, result)).resolves.toBeUndefined()
		expect(log).toHaveBeenCalledWith(expect.stringContaining('statement-of-reasons'), expect.any(Error))
	})
})
