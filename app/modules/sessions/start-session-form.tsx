import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/translation'
import { Form, useFetcher } from 'react-router'
import { ErrorList, Field, SubmitButton } from '#app/components/forms'
import type { Locale } from '#app/i18n/locales'
import { NumberField } from './number-field'
import { AGREEMENT_ASKED, SESSION_LIMITS, StartSessionSchema } from './schemas'
import { START_SESSION_STATUS, startSessionPath, type LinkedChannel, type StartSessionStatus } from './start-session-button'

/** What the start-session action answers when it refuses (400, or 409 for a rule of the database). */
export type StartSessionActionData = { result: SubmissionResult<string[]>; needsAgreement: boolean }

/** The number fields, in the order the form shows them; their limits and defaults are SESSION_LIMITS'. */
const NUMBER_FIELDS = [
	{ name: 'maxDaresPerUser', label: 'sessions.max-dares', hint: null },
	{ name: 'maxFreeDaresPerUser', label: 'sessions.max-free-dares', hint: 'sessions.max-free-dares-hint' },
	{ name: 'minBoost', label: 'sessions.min-boost', hint: 'sessions.min-boost-hint' },
	{ name: 'votingDuration', label: 'sessions.voting-duration', hint: 'sessions.voting-duration-hint' },
] as const

function numberOrDefault(value: unknown, fallback: number): number | undefined {
	if (value === undefined) return fallback
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
	return Number.isFinite(n) ? n : undefined
}

/**
 * The start-session form (docs/product.md §5.2), one for the dialog (a fetcher, with
 * JavaScript) and the page (a plain form, without). `needsAgreement` shows
 * the creator-agreement acceptance inside the form, from the first view, to
 * a creator who has not accepted the current version (docs/product.md
 * §10.6): sent ticked, the server records it and starts the session at once.
 *
 * The number fields clamp and snap (they are settings; the creator sees what
 * a value became) and, as a native input would, tell the form of every
 * change, so a message goes as soon as the value is right again. The rule
 * across two of them (free dares at most the dares per viewer) is checked as
 * soon as either is changed, before any sending.
 */
function StartSessionFields({
	channels,
	lastResult,
	lang,
	needsAgreement,
	FormComponent,
	onCancel,
}: {
	channels: LinkedChannel[]
	lastResult: SubmissionResult<string[]> | null | undefined
	lang: Locale
	needsAgreement: boolean
	FormComponent: typeof Form
	onCancel?: () => void
}) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'start-session',
		lastResult,
		constraint: getZodConstraint(StartSessionSchema),
		shouldValidate: 'onSubmit',
		shouldRevalidate: 'onInput',
		defaultValue: {
			platform: channels[0]?.platform,
			...Object.fromEntries(NUMBER_FIELDS.map(({ name }) => [name, String(SESSION_LIMITS[name].default)])),
		},
		onValidate: ({ formData }) => parseWithZod(formData, { schema: StartSessionSchema }),
	})
	// Either side of "free dares ≤ dares per viewer" changed: both are checked (the message sits on the free dares).
	const checkDares = () => {
		form.validate({ name: 'maxDaresPerUser' })
		form.validate({ name: 'maxFreeDaresPerUser' })
	}
	const agreement = fields.acceptAgreement
	return (
		<FormComponent method="post" action={startSessionPath(lang)} {...getFormProps(form)} className="stack start-session">
			<Field
				label={t('sessions.title')}
				hint={t('sessions.title-hint')}
				// getZodConstraint (Conform 1.x with Zod 4.6) yields only `required`;
				// the length comes from the same limits the schema uses.
				inputProps={{
					...getInputProps(fields.title, { type: 'text' }),
					minLength: SESSION_LIMITS.title.min,
					maxLength: SESSION_LIMITS.title.max,
					autoComplete: 'off',
				}}
				errors={fields.title.errors}
			/>
			<div className="field">
				<label htmlFor={fields.platform.id}>{t('sessions.channel')}</label>
				<select {...getSelectProps(fields.platform)}>
					{channels.map((c) => (
						<option key={c.platform} value={c.platform}>
							{`${t(`platforms.${c.platform}`)} · ${c.channel}`}
						</option>
					))}
				</select>
				<ErrorList id={fields.platform.errorId} errors={fields.platform.errors} />
			</div>
			<div className="start-session__numbers">
				{NUMBER_FIELDS.map(({ name, label, hint }) => (
					<NumberField
						key={name}
						name={fields[name].name}
						label={t(label)}
						hint={hint ? t(hint) : undefined}
						limit={SESSION_LIMITS[name]}
						defaultValue={numberOrDefault(fields[name].initialValue, SESSION_LIMITS[name].default)}
						errors={fields[name].errors}
						locale={lang}
						outOfRange="clamp"
						onCommit={name === 'maxDaresPerUser' || name === 'maxFreeDaresPerUser' ? checkDares : undefined}
					/>
				))}
			</div>
			{needsAgreement ? (
				<fieldset className="agreement-box">
					<legend>{t('sessions.agreement-title')}</legend>
					<input type="hidden" name={AGREEMENT_ASKED} value="yes" />
					<p>{t('sessions.agreement-description')}</p>
					<p>
						<a href={`/${lang}/creator-agreement`} target="_blank" rel="noopener">
							{t('sessions.agreement-read')}
						</a>
					</p>
					<label className="checkbox">
						<input
							type="checkbox"
							name={agreement.name}
							id={agreement.id}
							value="accept"
							required
							defaultChecked={agreement.initialValue === 'accept'}
							aria-invalid={agreement.errors?.length ? true : undefined}
							aria-describedby={agreement.errors?.length ? agreement.errorId : undefined}
						/>
						<span>{t('sessions.agreement-checkbox')}</span>
					</label>
					<ErrorList id={agreement.errorId} errors={agreement.errors} />
				</fieldset>
			) : null}
			<ErrorList id={form.errorId} errors={form.errors} />
			<div className="actions">
				{onCancel ? (
					<button type="button" className="button button--ghost" onClick={onCancel}>
						{t('sessions.cancel')}
					</button>
				) : null}
				<SubmitButton intent="start">{t('sessions.submit')}</SubmitButton>
			</div>
		</FormComponent>
	)
}

/** The page form (works without JavaScript). */
export function StartSessionPageForm({
	channels,
	needsAgreement,
	actionData,
	lang,
}: {
	channels: LinkedChannel[]
	/** The loader's reading: the creator has not accepted the current creator agreement. */
	needsAgreement: boolean
	actionData: StartSessionActionData | undefined
	lang: Locale
}) {
	return (
		<StartSessionFields
			channels={channels}
			lastResult={actionData?.result}
			lang={lang}
			needsAgreement={needsAgreement || actionData?.needsAgreement === true}
			FormComponent={Form}
		/>
	)
}

/**
 * The dialog's content, loaded when a creator first opens it
 * (start-session-button.tsx, which also starts reading whether the agreement
 * is owed: the form waits for that answer, so the box is there from the
 * first view and nothing moves).
 */
export default function StartSessionDialogBody({ channels, lang, onClose }: { channels: LinkedChannel[]; lang: Locale; onClose: () => void }) {
	const { t } = useTranslation()
	const status = useFetcher<StartSessionStatus>({ key: START_SESSION_STATUS })
	const fetcher = useFetcher<StartSessionActionData>()
	return (
		<>
			<h2 id="start-session-heading">{t('sessions.start-title')}</h2>
			<p className="muted">{t('sessions.start-description')}</p>
			{status.data ? (
				<StartSessionFields
					channels={channels}
					lastResult={fetcher.data?.result}
					lang={lang}
					// A version published since the dialog read it: the server's answer asks for it.
					needsAgreement={status.data.needsAgreement || fetcher.data?.needsAgreement === true}
					FormComponent={fetcher.Form}
					onCancel={onClose}
				/>
			) : (
				<p className="muted">{t('sessions.loading-form')}</p>
			)}
		</>
	)
}
