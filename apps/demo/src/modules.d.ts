// Types of Qwik City's virtual modules (@qwik-city-plan...), which its exports map does not expose.
/// <reference path="../node_modules/@builder.io/qwik-city/modules.d.ts" />
