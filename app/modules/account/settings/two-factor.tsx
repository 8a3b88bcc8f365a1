import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/translation'
import { Form } from 'react-router'
import { z } from '#app/utils/zod'
import { ErrorList, Field, SubmitButton } from '#app/components/forms'
import { PasswordSchema, TotpCodeSchema } from '#app/modules/account/schemas'

export const TOTP_ENROLL_INTENT = 'totp-enroll'
export const TOTP_DISABLE_INTENT = 'totp-disable'
export const TOTP_CONFIRM_INTENT = 'totp-confirm'

/** Setting two-factor up and turning it off both ask for the current password. */
export const TotpPasswordSchema = z.object({ password: PasswordSchema })
/** The code from the app; the setup it confirms travels along so a wrong code can show it again. */
export const TotpConfirmSchema = TotpCodeSchema

/** What setting up shows: the QR code (drawn on the server), the key and the recovery codes. */
export type TotpSetup = {
	uri: string
	secret: string
	recoveryCodes: string[]
	/** The QR code as an SVG path on a `size`×`size` grid of modules. */
	qr: { size: number; path: string }
}

export function TwoFactorSection({
	enabled,
	setup,
	lastResult,
}: {
	enabled: boolean
	setup: TotpSetup | null
	lastResult: { intent: string; result: SubmissionResult<string[]> | null } | null
}) {
	const { t } = useTranslation()
	const intent = enabled ? TOTP_DISABLE_INTENT : TOTP_ENROLL_INTENT
	return (
		<section className="card settings__section" aria-labelledby="settings-totp">
			<h2 id="settings-totp">{t('settings.totp-title')}</h2>
			{setup ? (
				<TotpConfirm setup={setup} lastResult={lastResult?.intent === TOTP_CONFIRM_INTENT ? lastResult.result : null} />
			) : (
				<>
					<p className="settings__lead">{enabled ? t('settings.totp-on') : t('settings.totp-off')}</p>
					<PasswordForm
						key={intent}
						intent={intent}
						label={enabled ? t('settings.totp-disable') : t('settings.totp-enable')}
						lastResult={lastResult?.intent === intent ? lastResult.result : null}
					/>
				</>
			)}
		</section>
	)
}

function PasswordForm({ intent, label, lastResult }: { intent: string; label: string; lastResult: SubmissionResult<string[]> | null }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: intent,
		lastResult,
		constraint: getZodConstraint(TotpPasswordSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: TotpPasswordSchema }),
	})
	return (
		<Form method="post" {...getFormProps(form)} className="stack">
			<Field
				label={t('settings.confirm-password')}
				inputProps={{ ...getInputProps(fields.password, { type: 'password' }), autoComplete: 'current-password' }}
				errors={fields.password.errors}
			/>
			<ErrorList id={form.errorId} errors={form.errors} />
			<SubmitButton intent={intent} className={intent === TOTP_DISABLE_INTENT ? 'button' : 'button button--primary'}>
				{label}
			</SubmitButton>
		</Form>
	)
}

function TotpConfirm({ setup, lastResult }: { setup: TotpSetup; lastResult: SubmissionResult<string[]> | null }) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: TOTP_CONFIRM_INTENT,
		lastResult,
		constraint: getZodConstraint(TotpConfirmSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: TotpConfirmSchema }),
	})
	return (
		<div className="totp-setup">
			<p className="settings__lead">{t('settings.totp-scan')}</p>
			<div className="totp-setup__code">
				<a href={setup.uri} className="totp-setup__qr" title={t('settings.totp-open-app')}>
					<svg viewBox={`0 0 ${setup.qr.size} ${setup.qr.size}`} role="img" aria-label={t('settings.totp-qr')} shapeRendering="crispEdges">
						<rect width={setup.qr.size} height={setup.qr.size} fill="#fff" />
						<path d={setup.qr.path} fill="#000" />
					</svg>
				</a>
				<div className="totp-setup__key">
					<p>{t('settings.totp-secret')}</p>
					<code className="secret" aria-describedby="totp-secret-hint">
						{setup.secret}
					</code>
					<p id="totp-secret-hint" className="field__hint">
						{t('settings.totp-secret-hint')}
					</p>
					<p>
						<a href={setup.uri}>{t('settings.totp-open-app')}</a>
					</p>
				</div>
			</div>
			{setup.recoveryCodes.length > 0 ? (
				<>
					<p>{t('settings.totp-recovery')}</p>
					<ul className="recovery-codes">
						{setup.recoveryCodes.map((code) => (
							<li key={code}>
								<code>{code}</code>
							</li>
						))}
					</ul>
				</>
			) : null}
			<Form method="post" {...getFormProps(form)} className="stack">
				<input type="hidden" name="uri" value={setup.uri} />
				<input type="hidden" name="secret" value={setup.secret} />
				{setup.recoveryCodes.map((code) => (
					<input key={code} type="hidden" name="recoveryCodes" value={code} />
				))}
				<Field
					label={t('auth.totp-code')}
					inputProps={{ ...getInputProps(fields.code, { type: 'text' }), autoComplete: 'one-time-code', inputMode: 'numeric' }}
					errors={fields.code.errors}
				/>
				<ErrorList id={form.errorId} errors={form.errors} />
				<SubmitButton intent={TOTP_CONFIRM_INTENT}>{t('settings.totp-confirm')}</SubmitButton>
			</Form>
		</div>
	)
}
