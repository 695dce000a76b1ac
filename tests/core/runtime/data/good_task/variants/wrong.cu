// wrong variant (parser test data only)
