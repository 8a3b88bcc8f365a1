import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useTranslation } from '#app/i18n/translation'
import { Form } from 'react-router'
import { z } from '#app/utils/zod'
import { ErrorList, Field, SubmitButton } from '#app/components/forms'
import { UsernameSchema } from '#app/modules/account/schemas'

export const USERNAME_INTENT = 'username'
export const UsernameSettingsSchema = z.object({ username: UsernameSchema })

/** The signed-in address and the username form. */
export function ProfileSection({
	email,
	username,
	lastResult,
}: {
	email: string | null
	username: string | null
	lastResult: SubmissionResult<string[]> | null | undefined
}) {
	const { t } = useTranslation()
	const [form, fields] = useForm({
		id: 'settings-username',
		lastResult,
		defaultValue: { username: username ?? '' },
		constraint: getZodConstraint(UsernameSettingsSchema),
		shouldValidate: 'onBlur',
		shouldRevalidate: 'onInput',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: UsernameSettingsSchema }),
	})
	const { pattern: _pattern, ...usernameProps } = getInputProps(fields.username, { type: 'text' })
	return (
		<section className="card settings__section" aria-labelledby="settings-profile">
			<h2 id="settings-profile">{t('settings.profile')}</h2>
			{email ? (
				<p className="settings__lead">
					{t('settings.signed-in-as')} <strong className="settings__email">{email}</strong>
				</p>
			) : null}
			<Form method="post" {...getFormProps(form)} className="stack">
				<Field
					label={t('account.username')}
					// The schema's length and character set each have their message; the
					// browser's generic "match the format" would stand in for both.
					inputProps={{ ...usernameProps, maxLength: 100, autoCapitalize: 'none', autoComplete: 'username', spellCheck: false }}
					errors={fields.username.errors}
					hint={t('account.username-hint')}
				/>
				<ErrorList id={form.errorId} errors={form.errors} />
				<SubmitButton intent={USERNAME_INTENT} className="button button--primary">
					{t('settings.save')}
				</SubmitButton>
			</Form>
		</section>
	)
}
