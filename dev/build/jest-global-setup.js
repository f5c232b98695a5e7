'use strict';
// jest's globalSetup (every jest config): the tests exercise dist/, so a stale one is rebuilt first.
const { ensureFreshDist } = require('./fresh-dist');

module.exports = () => ensureFreshDist();
