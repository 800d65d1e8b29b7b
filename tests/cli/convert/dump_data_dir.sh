# dump_data_dir of a tensor conversion, as msprobe writes it: <dump_path>/dump_tensor_data with
# dump_path as given for PyTorch (relative stays relative), made absolute for MindSpore and
# MSAdapter (mindtorch); dump_path is --dump-path, else the trace header's, else OUT as given.
dd() { grep '"dump_data_dir"' "$1/dump.json"; }
C="$SRC/testdata/captures"
"$MSDUMP" convert "$C/tiny_mix" -o ./pt/../pt --quiet --task tensor || exit 99
echo "pytorch, OUT:          $(dd pt)"
"$MSDUMP" convert "$C/mindspore_cells" -o ./ms/../ms --quiet --task tensor || exit 99
echo "mindspore, OUT:        $(dd ms)"
"$MSDUMP" convert "$C/mindtorch_basic" -o mt/ --quiet --task tensor || exit 99
echo "mindtorch, OUT:        $(dd mt)"
"$MSDUMP" convert "$C/mindspore_cells" -o ms2 --quiet --task tensor --dump-path rel/step0/rank0 || exit 99
echo "mindspore, --dump-path: $(dd ms2)"
cp -r "$C/tiny_mix" cap || exit 99
sed -i '1s#}$#, "dump_path": "./rel_out/step0/proc19202"}#' cap/trace.jsonl
"$MSDUMP" convert cap -o hdr --quiet --task tensor || exit 99
echo "pytorch, header:       $(dd hdr)"
"$MSDUMP" convert cap -o flag --quiet --task tensor --dump-path /data/run42/step0/rank0 || exit 99
echo "pytorch, flag > header: $(dd flag)"
