import { useTranslation } from 'react-i18next'
import { StaticPage } from '#app/components/static-page'

export default function LoginPage() {
	const { t } = useTranslation()
	return <StaticPage title={t('pages.login.title')} />
}
