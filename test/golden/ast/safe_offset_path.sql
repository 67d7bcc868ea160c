select a.b.c[SAFE_OFFSET(0)] from t
