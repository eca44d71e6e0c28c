/** The version the CLI reports (kept in step with package.json by the release). */
export const VERSION = '0.1.0';
