from desktop_dedup.cli import main

raise SystemExit(main())
