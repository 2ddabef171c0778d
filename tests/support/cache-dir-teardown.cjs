// Jest globalTeardown: removes the code-cache and user folders tests/support/cache-dir.cjs made for the run.
module.exports = require('./cache-dir.cjs').teardown;
