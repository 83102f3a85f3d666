# mca-lib.sh: shell functions shared by mca-report.sh and ablation.sh (sourced).

# json KEY FILE: the value of a flat "KEY": value pair
json() { sed -n "s/.*\"$1\": *\"*\([^,\"}]*\).*/\1/p" "$2"; }

# mark SRC OUT COMMENT: asm comments around one unrolled body of the k loop
# and its pointer bumps (the loop's lines are fixed by templates/kernel_fn.c.in)
mark() {
    awk -v c="$3" '
        /for \(int64_t it = nq \/ / { print; print "__asm__ volatile(\"" c " LLVM-MCA-BEGIN\");"; inb = 1; next }
        inb && /^        }/ { print "__asm__ volatile(\"" c " LLVM-MCA-END\");"; inb = 0 }
        { print }' "$1" > "$2"
}

# loop ASM: the block holding the begin marker, from its label through the
# branch back to that label; marker and #APP lines dropped. Falls back to
# the lines between the markers when the loop is not one block.
loop() {
    awk '
        /^[.A-Za-z_$][.A-Za-z_0-9$]*:/ { if (!inb && !done) { lab = $1; sub(/:.*/, "", lab); n = 0 } }
        /LLVM-MCA-BEGIN/ { inb = 1; head = lab; next }
        /LLVM-MCA-END/ { inb = 0; done = 1; next }
        /APP/ { next }
        { body[++n] = $0 }
        done && $NF == head { for (i = 1; i <= n; i++) print body[i]; found = 1; exit }
        END { if (!found) exit 1 }' "$1" > "$2" && return 0
    awk '/LLVM-MCA-END/ { exit } f && !/APP/ { print } /LLVM-MCA-BEGIN/ { f = 1 }' "$1" > "$2"
}
