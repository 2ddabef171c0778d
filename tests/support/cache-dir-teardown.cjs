// Jest globalTeardown: removes the code-cache folder tests/support/cache-dir.js made for the run.
module.exports = require('./cache-dir.cjs').teardown;
