import { data, type RouterContextProvider } from 'react-router'
import { redirectWithError, redirectWithSuccess } from 'remix-toast'
import { servicesContext } from '#app/context.server'
import { toAppError } from '#app/db/database.server'
import { translateError } from '#app/i18n/errors'
import { getInstance } from '#app/i18n/i18next.server'
import type { Locale } from '#app/i18n/locales'
import { requireViewer } from '#app/modules/account/require-viewer.server'
import { queryAsViewer } from '#app/utils/db.server'
import { notFound } from '#app/utils/http'
import { z } from '#app/utils/zod'
import type { PayoutDecision } from '#app/modules/payouts/schemas'
import { parseAppeal, type DecisionAction, type Ground } from './decision-schemas'

type Ctx = Readonly<RouterContextProvider>

/** A decision as the user it affected reads it (public.my_decision), with their appeal's progress. */
export interface MyDecision {
	id: string
	/** A payout's rejection too (docs/product.md §14.4). */
	action: DecisionAction | PayoutDecision
	ground: Ground
	explanation: string
	dareDescription: string | null
	automatedDetection: boolean
	createdAt: string
	appealable: boolean
	/** When their appeal arrived (null: not appealed). */
	appealedAt: string | null
	/** The decision on their appeal, once taken. */
	outcome: { action: 'appeal_upheld' | 'appeal_granted'; decidedAt: string } | null
}

export type AppealActionData = { error: 'error-appeal-statement-required' | 'error-appeal-statement-too-long'; statement: string }

const decisionIdOf = (request: Request, id: string | undefined) => (z.uuid().safeParse(id).success ? id! : notFound(request))

/**
 * /{lang}/appeal/:decisionId: a visitor is sent to sign in and back; a
 * decision that is not the viewer's (or does not exist) is a 404, as the
 * database answers no row for it.
 */
export async function loadMyDecision(request: Request, context: Ctx, id: string | undefined): Promise<MyDecision> {
	requireViewer(request, context)
	const decisionId = decisionIdOf(request, id)
	const row = await queryAsViewer(context, async (tx) => {
		const { rows } = await tx.query<{
			id: string
			action: DecisionAction
			ground: Ground
			explanation: string
			dare_description: string | null
			automated_detection: boolean
			created_at: Date | string
			appealed: boolean
			appealable: boolean
		}>('select * from public.my_decision($1)', [decisionId])
		return rows[0]
	})
	if (!row) notFound(request)
	let appealedAt: string | null = null
	let outcome: MyDecision['outcome'] = null
	if (row.appealed) {
		// When the appeal arrived and whether it is decided: the decision is the
		// viewer's (my_decision answered it), the appeals table no API role's to read.
		const { db } = context.get(servicesContext)
		const { rows } = await db.query<{ appealed_at: Date | string; outcome: 'appeal_upheld' | 'appeal_granted' | null; decided_at: Date | string | null }>(
			`select a.created_at as appealed_at, x.action as outcome, x.created_at as decided_at
			 from app_private.moderation_appeals a
			 left join app_private.moderation_decisions x on x.appeal_of = a.decision_id
			 where a.decision_id = $1`,
			[decisionId],
		)
		const appeal = rows[0]
		if (appeal) {
			appealedAt = new Date(appeal.appealed_at).toISOString()
			outcome = appeal.outcome && appeal.decided_at ? { action: appeal.outcome, decidedAt: new Date(appeal.decided_at).toISOString() } : null
		}
	}
	return {
		id: row.id,
		action: row.action,
		ground: row.ground,
		explanation: row.explanation,
		dareDescription: row.dare_description,
		automatedDetection: row.automated_detection,
		createdAt: new Date(row.created_at).toISOString(),
		appealable: row.appealable,
		appealedAt,
		outcome,
	}
}

/** The appeal form: public.appeal_decision as the viewer (once, within six months, by the affected user), answered with a toast. */
export async function appealDecision(request: Request, context: Ctx, lang: Locale, id: string | undefined) {
	requireViewer(request, context)
	const decisionId = decisionIdOf(request, id)
	const here = `/${lang}/appeal/${decisionId}`
	const { t, language } = getInstance(context)
	const formData = await request.formData()
	const parsed = parseAppeal(formData)
	if (!parsed.ok) return data<AppealActionData>({ error: parsed.error, statement: String(formData.get('statement') ?? '') }, { status: 400 })
	try {
		await queryAsViewer(context, (tx) => tx.query('select public.appeal_decision($1, $2)', [decisionId, parsed.statement]))
	} catch (error) {
		const appError = toAppError(error)
		if (!appError) console.error('moderation: an appeal failed', error)
		return redirectWithError(here, translateError(t, appError?.code ?? 'error-unknown', language))
	}
	return redirectWithSuccess(here, t('appeal.sent'))
}
