import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useRef, useState } from 'react'
import { useTranslation } from '#app/i18n/translation'
import { Form, useFetcher } from 'react-router'
import { toast } from '#app/components/toast'
import { ErrorList, Field, SubmitButton } from '#app/components/forms'
import type { Locale } from '#app/i18n/locales'
import { NumberField } from './number-field'
import { SESSION_LIMITS, StartSessionSchema } from './schemas'
import { startSessionPath, type LinkedChannel } from './start-session-button'

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
 * JavaScript) and the page (a plain form, without). `agreementBox` shows the
 * creator-agreement acceptance inside the form: the page's way, when the
 * server has answered that the current version is not accepted yet.
 */
function StartSessionFields({
	channels,
	lastResult,
	lang,
	agreementBox,
	formRef,
	FormComponent,
	onCancel,
}: {
	channels: LinkedChannel[]
	lastResult: SubmissionResult<string[]> | null | undefined
	lang: Locale
	agreementBox: boolean
	formRef?: React.Ref<HTMLFormElement>
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
	return (
		<FormComponent method="post" action={startSessionPath(lang)} ref={formRef} {...getFormProps(form)} className="stack start-session">
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
					/>
				))}
			</div>
			{agreementBox ? (
				<fieldset className="agreement-box">
					<legend>{t('sessions.agreement-title')}</legend>
					<AgreementIntro lang={lang} />
					<label className="checkbox">
						<input type="checkbox" name="acceptAgreement" value="accept" required />
						<span>{t('sessions.agreement-checkbox')}</span>
					</label>
					<button type="submit" name="intent" value="decline-agreement" formNoValidate className="button button--ghost">
						{t('sessions.agreement-decline')}
					</button>
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
	actionData,
	lang,
}: {
	channels: LinkedChannel[]
	actionData: StartSessionActionData | undefined
	lang: Locale
}) {
	return (
		<StartSessionFields
			channels={channels}
			lastResult={actionData?.result}
			lang={lang}
			agreementBox={actionData?.needsAgreement ?? false}
			FormComponent={Form}
		/>
	)
}

/** The dialog's content, loaded when a creator first opens it (start-session-button.tsx). */
export default function StartSessionDialogBody({ channels, lang, onClose }: { channels: LinkedChannel[]; lang: Locale; onClose: () => void }) {
	const { t } = useTranslation()
	const fetcher = useFetcher<StartSessionActionData>()
	const formRef = useRef<HTMLFormElement>(null)
	// The agreement is asked for when the server answers that it is missing,
	// until the creator answers that very response.
	const [answered, setAnswered] = useState<StartSessionActionData | undefined>(undefined)
	const askAgreement = fetcher.state === 'idle' && fetcher.data?.needsAgreement === true && fetcher.data !== answered

	const accept = () => {
		const form = formRef.current
		if (!form) return
		const formData = new FormData(form)
		formData.set('acceptAgreement', 'accept')
		formData.set('intent', 'start')
		setAnswered(fetcher.data)
		void fetcher.submit(formData, { method: 'post', action: startSessionPath(lang) })
	}
	const decline = () => {
		toast.error(t('errors.error-creator-agreement-declined'))
		onClose()
	}

	return (
		<>
			<div hidden={askAgreement}>
				<h2 id="start-session-heading">{t('sessions.start-title')}</h2>
				<p className="muted">{t('sessions.start-description')}</p>
				<StartSessionFields
					channels={channels}
					lastResult={fetcher.data?.needsAgreement ? null : fetcher.data?.result}
					lang={lang}
					agreementBox={false}
					formRef={formRef}
					FormComponent={fetcher.Form}
					onCancel={onClose}
				/>
			</div>
			{askAgreement ? (
				<div role="group" aria-labelledby="agreement-dialog-title" className="stack">
					<h2 id="agreement-dialog-title">{t('sessions.agreement-title')}</h2>
					<AgreementIntro lang={lang} />
					<div className="actions">
						<button type="button" className="button button--ghost" onClick={decline}>
							{t('sessions.agreement-decline')}
						</button>
						<button type="button" className="button button--primary" onClick={accept}>
							{t('sessions.agreement-accept')}
						</button>
					</div>
				</div>
			) : null}
		</>
	)
}

/** What the creator agreement asks, with the document to read in a new tab. */
function AgreementIntro({ lang }: { lang: Locale }) {
	const { t } = useTranslation()
	return (
		<>
			<p>{t('sessions.agreement-description')}</p>
			<p>
				<a href={`/${lang}/creator-agreement`} target="_blank" rel="noopener">
					{t('sessions.agreement-read')}
				</a>
			</p>
		</>
	)
}
