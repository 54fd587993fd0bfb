using RpcCompare.Testing;

namespace RpcCompare.SchemaExport.Tests;

internal static class CheckedInFiles
{
    public const string Regenerate = "clients/regenerate.sh";

    /// <summary>Requires clients/<paramref name="folder"/> to hold exactly <paramref name="generated"/>, byte for byte.</summary>
    public static void AssertMatch(string folder, string pattern, IReadOnlyDictionary<string, string> generated)
    {
        var directory = RepositoryPaths.Combine("clients", folder);
        foreach (var (name, content) in generated)
        {
            var path = Path.Combine(directory, name);
            Assert.True(File.Exists(path), $"{path} is missing; run `{Regenerate}` from the repository root and commit the result.");
            var checkedIn = File.ReadAllText(path).ReplaceLineEndings("\n");
            Assert.True(checkedIn == content, $"{path} is stale: the contracts changed. Run `{Regenerate}` from the repository root and commit the result.");
        }

        Assert.Equal(generated.Keys.Order(StringComparer.Ordinal), Directory.GetFiles(directory, pattern).Select(Path.GetFileName).Order(StringComparer.Ordinal));
    }
}
