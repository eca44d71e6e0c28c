// The example project's code: what the example flows' `npm test` checks.
exports.greet = (name) => `Hello, ${name}!`;
