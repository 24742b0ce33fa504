#!/bin/sh
# End-to-end tests of `posenc check` and `posenc golden`: dumps written at run
# time by posenc golden (the exact y of one RoPE), then checked against the
# same RoPE (exit 0, verdict=match) and against a RoPE that differs by one
# known mistake (exit 1, that cause first), and bad input (exit 2).
#   sh tests/check_cli_test.sh build/posenc
prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
skipped=0

# expect NAME WANT_EXIT PATTERN ARGS...: runs posenc ARGS; the exit status
# must be WANT_EXIT and the output must have a line matching PATTERN
# (grep -E), the first CAUSE line when PATTERN starts with CAUSE.
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    case "$pat" in
    CAUSE*) line=$(grep '^CAUSE' "$tmp/out" | head -n 1) ;;
    *) line=$(cat "$tmp/out" "$tmp/err") ;;
    esac
    if [ "$got" = "$want" ] && printf '%s\n' "$line" | grep -Eq "$pat"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL check_cli/$name (exit $got, want $want; want /$pat/)" >&2
        head -n 20 "$tmp/out" "$tmp/err" >&2
    fi
}

# holds NAME TEST...: one check that the command TEST succeeds.
holds() {
    name=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL check_cli/$name" >&2; fi
}

g() { "$prog" golden "$@" >/dev/null 2>"$tmp/gerr" || { cat "$tmp/gerr" >&2; failed=$((failed + 1)); }; }

# a plain RoPE, half layout, partial rotary (48 of 64), three dtypes
for dt in F32 F16 BF16; do
    g --rope 'default head_dim=64 rotary_dim=48' --layout half --positions 0-40,1000,65536 \
        --heads 3 --dtype $dt -o "$tmp/plain-$dt.st"
    expect "exact-$dt" 0 "^CHECK verdict=match dtype=$dt n_tok=43 n_head=3 " \
        check --rope 'default head_dim=64 rotary_dim=48' --layout half "$tmp/plain-$dt.st"
done
expect layout-swapped 1 '^CAUSE name=layout-swapped fit_ulp=[0-9.e-]+ layout=half$' \
    check --rope 'default head_dim=64 rotary_dim=48' --layout interleaved "$tmp/plain-F32.st"
expect base 1 '^CAUSE name=base fit_ulp=[0-9.e-]+ base=10000$' \
    check --rope 'default head_dim=64 rotary_dim=48 base=500000' --layout half "$tmp/plain-BF16.st"
expect rotary-dim 1 '^CAUSE name=rotary-dim fit_ulp=[0-9.e-]+ rotary_dim=48$' \
    check --rope 'default head_dim=64 rotary_dim=64' --layout half "$tmp/plain-F16.st"
expect scaling 1 '^CAUSE name=scaling fit_ulp=[0-9.e-]+ what=none$' \
    check --rope 'linear head_dim=64 rotary_dim=48 factor=4' --layout half "$tmp/plain-F32.st"
expect bands 0 '^BAND pos=64-255 max_ulp=0 max_abs=0$|BAND pos=65536-262143 max_ulp=0\.[0-9]+' \
    check --rope 'default head_dim=64 rotary_dim=48' --layout half "$tmp/plain-F32.st"
expect tol 1 '^CHECK verdict=mismatch' \
    check --tol 0.01 --rope 'default head_dim=64 rotary_dim=48' --layout half "$tmp/plain-BF16.st"
expect wrong-head-dim 2 'head_dim 64 does not fit the model \(head_dim 32' \
    check --rope 'default head_dim=32' "$tmp/plain-F32.st"
# --engine: the arithmetic expected. The exact dump is within transformers'
# eager float32 (one rounding of the angle) but not ggml's float32 chain,
# whose angle error at position 65536 is far past 4 ulps: the cause names
# the exact arithmetic as the one the dump follows
expect engine-hf 0 '^CHECK verdict=match dtype=F32 n_tok=43 n_head=3 .* engine=hf$' \
    check --engine hf --rope 'default head_dim=64 rotary_dim=48' --layout half "$tmp/plain-F32.st"
expect engine-ggml 1 '^CAUSE name=angle-precision fit_ulp=[0-9.e-]+ onset=[0-9]+ model=exact$' \
    check --engine ggml --rope 'default head_dim=64 rotary_dim=48' --layout half "$tmp/plain-F32.st"
expect engine-bad 2 "check: --engine 'bogus' is not an engine" \
    check --engine bogus --rope default "$tmp/plain-F32.st"
expect no-file 2 'posenc check: .*/none.st: No such file' check --rope default "$tmp/none.st"
expect no-model 2 'give the model' check "$tmp/plain-F32.st"
printf 'not a dump' >"$tmp/bad.st"
expect bad-file 2 'posenc check: .*bad.st: ' check --rope default "$tmp/bad.st"
expect golden-no-o 2 'no output file' golden --rope 'default head_dim=8'
# --rope's words with a dump: more than 64 words, an unknown key, no head_dim
# needed (the dump's own)
words=$(i=0; while [ $i -lt 65 ]; do printf 'base=10000 '; i=$((i + 1)); done)
expect rope-65-words 2 '^posenc check: --rope: more than 64 words$' \
    check --rope "default $words" "$tmp/plain-F32.st"
expect rope-bad-key 2 "^posenc check: SET rope: unknown key 'colour'" \
    check --rope 'default colour=red' "$tmp/plain-F32.st"
expect rope-dump-head-dim 1 '^CHECK verdict=mismatch dtype=F32 n_tok=43 n_head=3 ' \
    check --rope default "$tmp/plain-F32.st"
# golden's default positions: 0-16, 2^k-1..2^k+1 for k = 5..19, 999999 and
# 1000000 (64; a plain RoPE has no lengths of its own); F16 and BF16 named
expect golden-default-positions 0 '^GOLDEN file=.*/dflt.st layer=0 n_tok=64 n_head=4 head_dim=8 dtype=F16 seq_len=1000001$' \
    golden --rope 'default head_dim=8' --dtype F16 -o "$tmp/dflt.st"
expect golden-bf16 0 '^GOLDEN file=.*/b.st layer=0 n_tok=3 n_head=2 head_dim=8 dtype=BF16 seq_len=100$' \
    golden --rope 'default head_dim=8' --dtype BF16 --heads 2 --seq-len 100 --positions 0,1,9 -o "$tmp/b.st"
expect golden-bf16-check 0 '^CHECK verdict=match dtype=BF16 n_tok=3 n_head=2 ' \
    check --rope 'default head_dim=8' --seq-len 100 "$tmp/b.st"

if "$prog" --features | grep -q '^config-json$'; then
    D=$(cd "$(dirname "$0")/data" && pwd)
    g --config "$D/llama-3.1-8b.json" --dtype BF16 -o "$tmp/l31.st"
    expect llama31-exact 0 '^CHECK verdict=match dtype=BF16 n_tok=64 n_head=4 ' \
        check --config "$D/llama-3.1-8b.json" "$tmp/l31.st"
    # Llama 2's RoPE where Llama 3.1's belongs: the base and the scaling
    expect llama31-vs-2 1 '^CAUSE name=none nearest=base fit_ulp=[0-9.e+-]+ base=500000 pair=[0-9]+ pos=[0-9]+ head=[0-9]+$' check --config "$D/llama-2-7b.json" "$tmp/l31.st"
    # Llama 3.1 without its llama3 scaling: the scaling left out
    g --rope 'default head_dim=128 base=500000' --layout half --positions 0-20,9000,100000 -o "$tmp/nos.st"
    expect llama31-no-scaling 1 '^CAUSE name=scaling fit_ulp=[0-9.e-]+ what=none$' \
        check --config "$D/llama-3.1-8b.json" "$tmp/nos.st"
    # gpt-oss: its sliding and full layers run one RoPE: one group, FILE itself
    g --config "$D/gpt-oss-20b.json" --positions 0-3 -o "$tmp/oss.st"
    expect oss-layer 0 '^CHECK verdict=match' check --config "$D/gpt-oss-20b.json" "$tmp/oss.st"
    # Gemma 3: two RoPE groups (sliding, full): FILE-layerN for each
    g --config "$D/models/gemma3-text-gemma-3-1b-it.json" --positions 0-3 -o "$tmp/gem.st"
    holds two-groups test -f "$tmp/gem-layer0.st" -a -f "$tmp/gem-layer5.st" -a ! -e "$tmp/gem.st"
    # FILE-layerN where FILE has no extension, a dot only in its folder, or
    # is a dot file; --layer N alone writes FILE itself
    mkdir "$tmp/d.dir"
    g --config "$D/models/gemma3-text-gemma-3-1b-it.json" --positions 0-1 -o "$tmp/d.dir/gem"
    holds layer-path-no-ext test -f "$tmp/d.dir/gem-layer0" -a -f "$tmp/d.dir/gem-layer5"
    g --config "$D/models/gemma3-text-gemma-3-1b-it.json" --positions 0-1 -o "$tmp/d.dir/.st"
    holds layer-path-dot-file test -f "$tmp/d.dir/.st-layer0" -a -f "$tmp/d.dir/.st-layer5"
    g --config "$D/models/gemma3-text-gemma-3-1b-it.json" --layer 5 --positions 0-1 -o "$tmp/g5.st"
    holds layer-one test -f "$tmp/g5.st" -a ! -e "$tmp/g5-layer5.st"
    expect layer-one-check 0 '^CHECK verdict=match' \
        check --config "$D/models/gemma3-text-gemma-3-1b-it.json" --layer 5 "$tmp/g5.st"
    expect layer-one-other 1 '^CHECK verdict=mismatch' \
        check --config "$D/models/gemma3-text-gemma-3-1b-it.json" --layer 0 "$tmp/g5.st"
    # a --layer past the model's layers, refused by name
    expect golden-layer-past 2 '^posenc golden: .*llama-3.1-8b.json: layer 1000 does not exist: the model has 32 layers \(0 to 31\)$' \
        golden --config "$D/llama-3.1-8b.json" --layer 1000 -o "$tmp/none.st"
    expect check-layer-past 2 '^posenc check: .*llama-3.1-8b.json: layer 1000 does not exist: the model has 32 layers \(0 to 31\)$' \
        check --config "$D/llama-3.1-8b.json" --layer 1000 "$tmp/l31.st"
    # --seq-len given: Llama 3.1's llama3 scaling does not depend on it
    expect llama31-seq-len 0 '^CHECK verdict=match dtype=BF16 n_tok=64 ' \
        check --config "$D/llama-3.1-8b.json" --seq-len 2000000 "$tmp/l31.st"
    # -o FILE is FILE itself for a model with one RoPE group (Llama 3.1)
    holds one-group test -f "$tmp/l31.st" -a ! -e "$tmp/l31-layer0.st"
    # --format gguf: a GGUF file with the op's arguments and rope_freqs
    # (tests/test_gguf_golden.c reads one back value by value)
    g --config "$D/llama-3.1-8b.json" --format gguf --positions 0-9,1000000 -o "$tmp/l31.gguf"
    holds golden-gguf test "$(head -c 4 "$tmp/l31.gguf")" = GGUF
    holds golden-gguf-keys grep -q 'rope_freqs.weight' "$tmp/l31.gguf"
    expect golden-gguf-dtype 2 'writes F32' golden --config "$D/llama-3.1-8b.json" --format gguf \
        --dtype BF16 -o "$tmp/l31b.gguf"
    # --gguf with a DUMP: the dump against llama.cpp's op for the file
    # (written by test_gguf_convert the converter's way): Qwen2.5's YaRN runs
    # as transformers' (NEOX, half); with the factor written wrong, the
    # scaling is named; Llama 3.1's transformers-order dump is not llama.cpp's
    # order (NORM runs the permuted rows)
    writer=$(dirname "$prog")/tests/test_gguf_convert
    if [ -x "$writer" ] && mkdir "$tmp/gguf" && (cd "$D/../.." && "$writer" --write-fixtures "$tmp/gguf"); then
        g --config "$D/gguf/qwen2.5-7b-instruct-yarn.json" --positions 0-20,5000,40000,131071 -o "$tmp/q.st"
        expect gguf-dump 0 '^CHECK verdict=match dtype=F32 n_tok=24 ' check --gguf "$tmp/gguf/qwen25-yarn.gguf" "$tmp/q.st"
        expect gguf-dump-factor 1 '^CAUSE name=scaling fit_ulp=[0-9.e-]+ what=yarn factor=4$' \
            check --gguf "$tmp/gguf/qwen25-yarn-factor.gguf" "$tmp/q.st"
        expect gguf-dump-norm 1 '^CHECK verdict=mismatch' check --gguf "$tmp/gguf/llama31.gguf" "$tmp/l31.st"
        # refusals of --gguf with a DUMP: a layer llama.cpp runs without RoPE
        # (SmolLM3's every 4th), an op with no posenc RoPE (grok's
        # yarn_ext_factor 0.5), a file llama.cpp's loader refuses
        expect gguf-dump-nope 2 'smollm3.gguf: layer 3 runs no RoPE in llama.cpp$' \
            check --gguf "$tmp/gguf/smollm3.gguf" --layer 3 "$tmp/q.st"
        expect gguf-dump-ext 2 "grok-ext.gguf: layer 0: llama.cpp's op \\(mode neox, ext_factor 0.5\\) has no posenc RoPE" \
            check --gguf "$tmp/gguf/grok-ext.gguf" "$tmp/q.st"
        expect gguf-dump-loader 2 "bad-scaling.gguf: key 'qwen2.rope.scaling.type': 'su' is not a scaling type" \
            check --gguf "$tmp/gguf/bad-scaling.gguf" "$tmp/q.st"
    else
        failed=$((failed + 1))
        echo "FAIL check_cli/gguf-fixtures: $writer --write-fixtures" >&2
    fi
else
    skipped=$((skipped + 24))
    echo "check_cli: skipped the --config cases (apt-get install libjansson-dev)"
fi
if [ "$skipped" -gt 0 ]; then
    echo "check_cli: $passed passed, $failed failed, $skipped skipped"
else
    echo "check_cli: $passed passed, $failed failed"
fi
