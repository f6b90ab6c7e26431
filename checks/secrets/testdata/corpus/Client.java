package com.example.shop;

public class Client {
    // Decoys
    private final String password = System.getenv("SHOP_PASSWORD");
    private String token = config.getToken();
    private static final String TOKEN_HEADER = "X-Shop-Token";

    // Planted
    private static final String API_KEY = "5da9eb89cdee19ba4629315e1a47cd6c";
    private static final String SHOPIFY_SECRET = "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";
    private static final String JDBC = "jdbc:mysql://root:M4xmI6Nnok4F38FBqO@mysql.internal:3306/shop";
}
