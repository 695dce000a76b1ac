// fast variant (parser test data only)
