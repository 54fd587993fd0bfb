using Microsoft.AspNetCore.Http;
using RpcCompare.Bindings.Wcf.Http;
using RpcCompare.Testing;

namespace RpcCompare.Bindings.Wcf.Tests;

/// <summary>
/// wcf-http answers metadata requests one at a time (CoreWCF's WSDL export races with itself across
/// services) and lets every other request through at once.
/// </summary>
public sealed class MetadataRequestsTests
{
    [Theory]
    [InlineData("GET", "?wsdl", true)]
    [InlineData("GET", "?WSDL", true)]
    [InlineData("GET", "?singleWsdl", true)]
    [InlineData("GET", "?wsdl=wsdl0", true)]
    [InlineData("GET", "?xsd=xsd0", true)]
    [InlineData("GET", "", false)]
    [InlineData("GET", "?topic=a", false)]
    [InlineData("POST", "?wsdl", false)]
    public void IsMetadataRequest_IsAGetAskingForWsdlOrSchema(string method, string query, bool expected) =>
        Assert.Equal(expected, MetadataRequests.IsMetadataRequest(Request(method, query).Request));

    [Fact]
    public async Task SecondMetadataRequest_WaitsUntilTheFirstIsAnswered()
    {
        using var queue = new SemaphoreSlim(1, 1);
        var requests = new MetadataRequests(queue);

        await AssertSecondWaitsForFirst(requests, requests, "?xsd=xsd0");
    }

    /// <summary>
    /// Two hosts in one process share CoreWCF's static export state, so a second host's first ?wsdl
    /// waits for the first host's (a queue per host failed three CI-sized runs).
    /// </summary>
    [Fact]
    public Task AnotherHostsMetadataRequest_WaitsUntilTheFirstIsAnswered() =>
        AssertSecondWaitsForFirst(new MetadataRequests(), new MetadataRequests(), "?singleWsdl");

    [Fact]
    public async Task OtherRequests_PassWhileAMetadataRequestIsBeingAnswered()
    {
        using var queue = new SemaphoreSlim(1, 1);
        var requests = new MetadataRequests(queue);
        var firstMayFinish = new TaskCompletionSource();
        var first = requests.InvokeAsync(Request("GET", "?wsdl"), _ => firstMayFinish.Task);

        var call = requests.InvokeAsync(Request("POST", "?wsdl"), _ => Task.CompletedTask);

        Assert.True(call.IsCompletedSuccessfully);
        firstMayFinish.SetResult();
        await first.Bounded();
    }

    [Fact]
    public async Task FailedMetadataRequest_LetsTheNextOneIn()
    {
        using var queue = new SemaphoreSlim(1, 1);
        var requests = new MetadataRequests(queue);

        await Assert.ThrowsAsync<InvalidOperationException>(() => requests.InvokeAsync(Request("GET", "?wsdl"), _ => throw new InvalidOperationException("export failed")));
        var next = requests.InvokeAsync(Request("GET", "?wsdl"), _ => Task.CompletedTask);

        Assert.True(next.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Wsdl_IsAnsweredAsTheSingleDocument()
    {
        var context = Request("GET", "?wsdl");
        string? seen = null;

        using var queue = new SemaphoreSlim(1, 1);
        await new MetadataRequests(queue).InvokeAsync(context, c =>
        {
            seen = c.Request.QueryString.Value;
            return Task.CompletedTask;
        });

        Assert.Equal("?singleWsdl", seen);
    }

    /// <summary>
    /// A ?wsdl through <paramref name="firstHost"/> holds the queue until released; a metadata request through
    /// <paramref name="secondHost"/> must not enter until then, and must enter after.
    /// </summary>
    private static async Task AssertSecondWaitsForFirst(MetadataRequests firstHost, MetadataRequests secondHost, string secondQuery)
    {
        var firstEntered = new TaskCompletionSource();
        var firstMayFinish = new TaskCompletionSource();
        var secondEntered = false;

        var first = firstHost.InvokeAsync(Request("GET", "?wsdl"), _ =>
        {
            firstEntered.TrySetResult();
            return firstMayFinish.Task;
        });
        try
        {
            // With the process-wide queue another test class's host may hold it for a moment: wait until ours has it.
            await firstEntered.Task.Bounded();
            var second = secondHost.InvokeAsync(Request("GET", secondQuery), _ =>
            {
                secondEntered = true;
                return Task.CompletedTask;
            });

            Assert.False(secondEntered);
            firstMayFinish.SetResult();
            await Task.WhenAll(first, second).Bounded();
            Assert.True(secondEntered);
        }
        finally
        {
            // A failed assertion must not leave the process-wide queue held: every other ?wsdl of the
            // test process would wait behind it and fail for this test's reason.
            firstMayFinish.TrySetResult();
        }
    }

    private static DefaultHttpContext Request(string method, string query)
    {
        var context = new DefaultHttpContext();
        context.Request.Method = method;
        context.Request.QueryString = new QueryString(query);
        return context;
    }
}
