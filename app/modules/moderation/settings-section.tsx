import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { useTranslation } from '#app/i18n/translation'
import { z } from '#app/utils/zod'
import { describedBy, ErrorList, FieldNotes, SubmitButton } from '#app/components/forms'

export const BLOCKED_TERMS_INTENT = 'blocked-terms'
export const UNBAN_INTENT = 'unban'

/** public.set_blocked_terms' limits (supabase/schemas/moderation.sql): at most 200 terms of 2 to 61 characters (60 and a trailing *). */
export const BLOCKED_TERMS_MAX = 200
const TERM_MIN = 2
const TERM_MAX = 61
/** Room for 200 terms of the longest kind and their line breaks; longer is no list SQL would take. */
const TERMS_TEXT_MAX = BLOCKED_TERMS_MAX * (TERM_MAX + 2)

/** The textarea's terms as public.set_blocked_terms keeps them: one per line, trimmed, lower case, each once. */
export function blockedTermsOf(text: string | undefined): string[] {
	const terms = (text ?? '')
		.split(/\r?\n/)
		.map((line) => line.trim().toLowerCase())
		.filter(Boolean)
	return [...new Set(terms)]
}

/**
 * The SQL check as far as the browser can make it: length, no control
 * characters, at most one * and only at the end, something besides it. The
 * database also refuses a term in which its filter finds no word (".."); it
 * says error-invalid-blocked-term then too.
 */
export function isBlockedTerm(term: string): boolean {
	return (
		term.length >= TERM_MIN &&
		term.length <= TERM_MAX &&
		// eslint-disable-next-line no-control-regex
		!/[\u0000-\u001f\u007f]/.test(term) &&
		/^[^*]+\*?$/.test(term) &&
		/[\p{L}\p{N}]/u.test(term)
	)
}

export const BlockedTermsSchema = z.object({
	terms: z
		.string()
		.max(TERMS_TEXT_MAX, 'error-too-many-blocked-terms')
		.optional()
		.superRefine((text, ctx) => {
			const terms = blockedTermsOf(text)
			if (terms.length > BLOCKED_TERMS_MAX) ctx.addIssue({ code: 'custom', message: 'error-too-many-blocked-terms' })
			else if (!terms.every(isBlockedTerm)) ctx.addIssue({ code: 'custom', message: 'error-invalid-blocked-term' })
		}),
})

export const UnbanSchema = z.object({ userId: z.guid() })

export type BannedViewer = { userId: string; username: string | null; bannedAt: string }

/** What the settings page shows of moderation (app/modules/moderation/settings.server.ts reads it). */
export type ModerationSettings = {
	/** A creator (a linked channel), or someone with terms or bans left from being one: the two sections show. */
	creator: boolean
	blockedTerms: string[]
	bans: BannedViewer[]
	restrictions: { suspended: boolean; payoutsRestricted: boolean }
}

/**
 * The top-of-page notice for a suspended account or restricted payouts
 * (docs/product.md §13.3): what it means, and that the statement of reasons
 * with the appeal link came by e-mail.
 */
export function RestrictionsNotice({ restrictions }: { restrictions: ModerationSettings['restrictions'] }) {
	const { t } = useTranslation()
	if (!restrictions.suspended && !restrictions.payoutsRestricted) return null
	return (
		<section className="notice moderation-notice" aria-labelledby="moderation-notice-title">
			<h2 id="moderation-notice-title">{t('moderation-settings.restricted-title')}</h2>
			{restrictions.suspended ? <p>{t('moderation-settings.suspended')}</p> : null}
			{restrictions.payoutsRestricted ? <p>{t('moderation-settings.payouts-restricted')}</p> : null}
			<p>{t('moderation-settings.restricted-appeal')}</p>
		</section>
	)
}

/** A creator's blocked terms and banned viewers, two cards of the settings page. */
export function CreatorModerationSections({
	settings,
	locale,
	lastResult,
}: {
	settings: ModerationSettings
	locale: string
	lastResult: SubmissionResult<string[]> | null | undefined
}) {
	if (!settings.creator) return null
	return (
		<>
			{/* A new form once the saved list changes: the textarea shows what was saved (lower case, each term once, sorted). */}
			<BlockedTermsSection key={settings.blockedTerms.join('\n')} terms={settings.blockedTerms} lastResult={lastResult} />
			<BannedViewersSection bans={settings.bans} locale={locale} />
		</>
	)
}

function BlockedTermsSection({ terms, lastResult }: { terms: string[]; lastResult: SubmissionResult<string[]> | null | undefined }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'settings-blocked-terms',
		lastResult,
		defaultValue: { terms: terms.join('\n') },
		constraint: getZodConstraint(BlockedTermsSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: BlockedTermsSchema }),
	})
	const { key, ...textareaProps } = getTextareaProps(fields.terms)
	const hint = t('moderation-settings.terms-hint', { max: BLOCKED_TERMS_MAX })
	return (
		<section className="card settings__section" aria-labelledby="settings-blocked-terms-title">
			<h2 id="settings-blocked-terms-title">{t('moderation-settings.terms-title')}</h2>
			<p className="settings__lead">{t('moderation-settings.terms-lead')}</p>
			<Form method="post" {...getFormProps(form)} className="stack">
				<div className="field">
					<label htmlFor={fields.terms.id}>{t('moderation-settings.terms-label')}</label>
					<textarea
						key={key}
						{...textareaProps}
						{...describedBy(fields.terms.id, hint, fields.terms.errors)}
						className="blocked-terms__input"
						rows={6}
						autoCapitalize="none"
						autoComplete="off"
						spellCheck={false}
					/>
					<FieldNotes id={fields.terms.id} hint={hint} errors={fields.terms.errors} />
				</div>
				<p className="blocked-terms__count">
					{t('moderation-settings.terms-count', { count: terms.length, max: BLOCKED_TERMS_MAX })}
				</p>
				<ErrorList id={form.errorId} errors={form.errors} />
				<SubmitButton intent={BLOCKED_TERMS_INTENT} className="button button--primary">
					{t('moderation-settings.terms-save')}
				</SubmitButton>
			</Form>
		</section>
	)
}

function BannedViewersSection({ bans, locale }: { bans: BannedViewer[]; locale: string }) {
	const { t } = useTranslation()
	// UTC: the server's and the browser's rendering must agree (as the purchase history does).
	const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })
	return (
		<section className="card settings__section" aria-labelledby="settings-bans-title">
			<h2 id="settings-bans-title">{t('moderation-settings.bans-title')}</h2>
			<p className="settings__lead">{t('moderation-settings.bans-lead')}</p>
			{bans.length === 0 ? (
				<p className="banned-viewers__empty">{t('moderation-settings.bans-empty')}</p>
			) : (
				<ul className="banned-viewers">
					{bans.map((ban) => {
						const name = ban.username ?? t('moderation-settings.bans-no-username')
						return (
							<li key={ban.userId}>
								<span className="banned-viewers__name">{name}</span>
								<span className="banned-viewers__date">{t('moderation-settings.bans-since', { date: dates.format(new Date(ban.bannedAt)) })}</span>
								<Form method="post" preventScrollReset>
									<input type="hidden" name="userId" value={ban.userId} />
									<button
										type="submit"
										name="intent"
										value={UNBAN_INTENT}
										className="button"
										aria-label={t('moderation-settings.unban-label', { username: name })}
									>
										{t('moderation-settings.unban')}
									</button>
								</Form>
							</li>
						)
					})}
				</ul>
			)}
		</section>
	)
}
