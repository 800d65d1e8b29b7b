# A capture can only be narrowed: one recorded at FOCUS cannot give ALL (exit 2, nothing
# written). An unknown level and a malformed header value are usage / input errors.
mkdir focus_capture && cp "$SRC"/testdata/captures/risk_all/* focus_capture/
sed -i '1s/"risk_level": "ALL"/"risk_level": "FOCUS"/' focus_capture/trace.jsonl
"$MSDUMP" convert focus_capture -o a --quiet --risk-level ALL; echo "exit $?"
ls a 2>/dev/null | wc -l
"$MSDUMP" convert focus_capture -o b --quiet --risk-level HIGH; echo "exit $?"
sed -i '1s/"risk_level": "FOCUS"/"risk_level": "focus"/' focus_capture/trace.jsonl
"$MSDUMP" convert focus_capture -o c --quiet; echo "exit $?"
sed -i '1s/"risk_level": "focus", "recorder": {[^}]*}/"risk_level": "FOCUS", "recorder": "me"/' focus_capture/trace.jsonl
"$MSDUMP" convert focus_capture -o d --quiet; echo "exit $?"
